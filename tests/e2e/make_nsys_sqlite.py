#!/usr/bin/env python3
"""Makes a small database with the tables and columns of `nsys export --type sqlite`
(nsys's documented schema: StringIds, CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _RUNTIME, and
NVTX_EVENTS with --nvtx) for the SQLite reader's tests. The figures are synthetic; no nsys
profile was recorded.
usage: make_nsys_sqlite.py OUT.sqlite three|fused|empty [--nvtx]
  empty   the tables only (bench/app_names.sh fills them)
  --nvtx  a warm-up step first, outside any range, then each of the 10 steps inside an NVTX
          range named "step": push/pop ranges with the name in `text` for three, start/end
          ranges with the name in StringIds (`textId`) for fused; also an "other" range
          around everything and a mark named "step", which --range step must ignore."""
import sqlite3, sys

out, mode = sys.argv[1], sys.argv[2]
nvtx = "--nvtx" in sys.argv[3:]
db = sqlite3.connect(out)
db.executescript("""
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER,
  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, localMemoryPerThread INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,
  copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER);
""")
if mode == "empty":
    db.commit()
    sys.exit(0)
names = ["add_kernel(float*)", "scale_kernel(float*)", "relu_kernel(float*)", "fused_kernel(float*)",
         "cudaLaunchKernel_v7000", "cudaMalloc_v3020", "cudaMemcpy_v3020", "step"]
db.executemany("INSERT INTO StringIds VALUES (?, ?)", enumerate(names, 1))
if nvtx:
    db.execute("CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
               "rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, "
               "endGlobalTid INTEGER, textId INTEGER, domainId INTEGER)")
PUSH_POP, START_END, MARK = 59, 60, 34
def nvtx_range(start, end, name):
    if mode == "three":
        db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text) VALUES (?, ?, ?, ?)", (start, end, PUSH_POP, name))
    else:
        db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, textId) VALUES (?, ?, ?, 8)", (start, end, START_END))
kernels = [1, 2, 3] if mode == "three" else [4]
t, corr = 1000, 1
for step in range(-1 if nvtx else 0, 10):
    step_start = t - 600
    for k in kernels:
        db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, correlationId, demangledName, shortName, "
                   "registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, "
                   "dynamicSharedMemory) VALUES (?, ?, ?, ?, ?, 16, 1024, 1, 1, 256, 1, 1, 0, 0)",
                   (t, t + (3000 if k == 4 else 2000), corr, k, k))
        db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, correlationId, nameId) VALUES (?, ?, ?, 5)",
                   (t - 500, t - 100, corr))
        t, corr = t + 4000, corr + 1
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, bytes, copyKind) VALUES (?, ?, 4096, 2)", (t, t + 800))
    t += 1000
    if nvtx and step >= 0:
        nvtx_range(step_start, t - 100, "step")
if nvtx:
    db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text) VALUES (0, ?, ?, 'other')", (t, PUSH_POP))
    db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text) VALUES (1000, NULL, ?, 'step')", (MARK,))
for i in range(2 if mode == "three" else 1):
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, correlationId, nameId) VALUES (?, ?, ?, 6)",
               (i, i + 100, 0))
db.commit()
