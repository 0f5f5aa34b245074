#pragma once
#define SCAN_SCALE 2
