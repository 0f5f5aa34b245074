/* fake_libcuda.c — a stand-in libcuda.so.1 for the tests that need kerndiff's GPU probe
 * (gpu/probe.c) to find a GPU on a machine with none: `kerndiff capture` and `--from` refuse
 * to run the program otherwise. LD_LIBRARY_PATH=BUILD/tests/fakecuda. It answers the probe's
 * six driver calls as one H100 would and nothing else: a test using it runs only programs that
 * launch no kernel (kerndiff's words about a program that failed before it launched any). */
#include <stdio.h>

int cuInit(unsigned flags) { return flags ? 1 : 0; }
int cuDeviceGetCount(int *count)
{
    *count = 1;
    return 0;
}
int cuDeviceGet(int *dev, int ordinal)
{
    *dev = ordinal;
    return ordinal == 0 ? 0 : 101; /* CUDA_ERROR_INVALID_DEVICE */
}
int cuDeviceGetAttribute(int *value, int attribute, int dev)
{
    (void)dev;
    *value = attribute == 75 ? 9 : attribute == 76 ? 0 : 0; /* compute capability 9.0 */
    return 0;
}
int cuDeviceGetName(char *name, int len, int dev)
{
    (void)dev;
    snprintf(name, (size_t)len, "fake libcuda (tests/fakes/fake_libcuda.c)");
    return 0;
}
int cuDriverGetVersion(int *version)
{
    *version = 13000;
    return 0;
}
