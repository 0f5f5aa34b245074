// prog.cu — the user's program of the capture tests (issue 30, tests/gpu/capture/run.sh and
// tests/gpu/capture_replay.sh).
//
// One kernel launched four ways, each with its own sizes and buffers: <<<>>>, cudaLaunchKernelEx
// with a cluster attribute (2x1x1) where the GPU has clusters, the driver's cuLaunchKernel, and a
// CUDA graph made by stream capture: a memcpy node that uploads the kernel's input (before the
// graph runs the input buffer holds zeros), the kernel's node, and a memset node that then
// overwrites the input with 0xff bytes; so only a capture taken around the kernel's node itself
// sees the right input before it and the unchanged input after it (the program also writes the
// uploaded input to OUTDIR/in-4.bin). A mode after OUTDIR changes how that graph is made:
// `explicit` builds the same three nodes with cudaGraphAdd*Node instead of a stream capture;
// `child` runs the graph as a child graph node of an outer graph; `changed` changes the
// executable graph after its instantiation (cudaGraphExecKernelNodeSetParams, same parameters).
// A capture takes the first two ways and refuses the last two.
// Each way is launched LAUNCHES times (a graph launch for the fourth): one warm-up launch (not timed; the first launch of the
// way, which the capture scripts capture) and REPS timed ones. The program prints one line per
// way with the launch number of its first launch (first_k) and the median of the timed ones,
// and writes each way's output buffer to OUTDIR/out-WAY.bin. The kernel takes a by-value struct
// holding a device pointer (into the middle of an allocation), so the capture must find pointer
// words inside structs and offsets inside allocations.
//
// Timed the way kerndiff times a launch, so that its replay's median compares like for like
// with the program's: each launch is ~150-400 us (ITERS dependent FMAs per element: event
// overhead is well under 1%); before each timed launch the L2 is flushed (a 256 MiB scratch
// buffer written with cudaMemsetAsync, outside the events: the H100's L2 is 50 MB); then the
// start event, the launch and the stop event are queued behind the memset (as kerndiff queues
// them behind a held stream), so the host's launch overhead is not inside the events either.
//
// Usage: prog OUTDIR [explicit|child|changed]      Build: nvcc -O2 -arch=sm_90 -o prog prog.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct Extra {
    const float *bias; // points 16 floats into a 512-float allocation
    float scale;
};

// Dependent FMAs per element: ~180 us for 1M elements on an H100 (132 SMs x 128 FMA a clock
// at ~1.7 GHz), so each way's launch is ~150-400 us. A compile-time constant: the parameter
// layout (out, in, Extra, n; 36 bytes) is the one tests/gpu/capture/run.sh checks.
#ifndef ITERS
#define ITERS 5120
#endif

__global__ void kd_capture_kernel(float *out, const float *in, Extra e, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = in[i] * e.scale + e.bias[i % 256];
        float y = t;
#pragma unroll 16
        for (int k = 0; k < ITERS; k++) // a contraction towards 2t: stays finite, depends on t
            y = fmaf(y, 0.5f, t);
        out[i] = y;
    }
}

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CKD(call)                                                                                  \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            fprintf(stderr, "%s:%d: %s: CUresult %d\n", __FILE__, __LINE__, #call, (int)r_);       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum { REPS = 20, LAUNCHES = REPS + 1, BLOCK = 256 };
static const size_t FLUSH_BYTES = (size_t)256 << 20;

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUTDIR [explicit|child|changed]\n", argv[0]);
        return 2;
    }
    const std::string mode = argc > 2 ? argv[2] : "";
    if (mode != "" && mode != "explicit" && mode != "child" && mode != "changed") {
        fprintf(stderr, "unknown mode %s\n", argv[2]);
        return 2;
    }
    const int sizes[4] = {1 << 20, 3 << 19, 5 << 18, 7 << 17}; // 1M, 1.5M, 1.25M, 0.875M elements
    const char *ways[4] = {"triple-chevron", "cudaLaunchKernelEx", "cuLaunchKernel", "graph"};
    int dev = 0, major = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));

    std::vector<float> hbias(512);
    for (int i = 0; i < 512; i++)
        hbias[i] = 0.25f * (float)(i % 7) - 0.5f;
    float *bias = nullptr;
    CK(cudaMalloc(&bias, 512 * sizeof(float)));
    CK(cudaMemcpy(bias, hbias.data(), 512 * sizeof(float), cudaMemcpyHostToDevice));

    void *flush = nullptr; // written before each timed launch: the L2 holds none of the kernel's data
    CK(cudaMalloc(&flush, FLUSH_BYTES));

    cudaEvent_t start[REPS], stop[REPS];
    for (int r = 0; r < REPS; r++) {
        CK(cudaEventCreate(&start[r]));
        CK(cudaEventCreate(&stop[r]));
    }
    cudaFunction_t rt_fn;
    CK(cudaGetFuncBySymbol(&rt_fn, (const void *)kd_capture_kernel));
    CUfunction fn = (CUfunction)rt_fn;

    cudaStream_t gs; // the graph's stream (a stream capture cannot use the legacy default stream)
    CK(cudaStreamCreate(&gs));
    for (int w = 0; w < 4; w++) {
        int n = sizes[w];
        std::vector<float> hin(n);
        for (int i = 0; i < n; i++)
            hin[i] = std::sin(0.001f * (float)i + (float)w);
        float *in = nullptr, *out = nullptr;
        CK(cudaMalloc(&in, n * sizeof(float)));
        CK(cudaMalloc(&out, n * sizeof(float)));
        CK(cudaMemcpy(in, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        CK(cudaMemset(out, 0, n * sizeof(float)));
        CK(cudaDeviceSynchronize());
        Extra e = {bias + 16, 1.5f + (float)w};
        unsigned grid = (unsigned)((n + BLOCK - 1) / BLOCK);
        grid += grid % 2; // even: a cluster of 2 divides it
        int cluster = 0;
        float *pinned = nullptr;
        cudaGraphExec_t exec = nullptr;
        cudaGraph_t graph = nullptr;
        if (w == 3) { // upload, kernel, overwrite the input: captured from gs into a graph
            CK(cudaMallocHost(&pinned, n * sizeof(float)));
            std::copy(hin.begin(), hin.end(), pinned);
            CK(cudaMemset(in, 0, n * sizeof(float)));
            CK(cudaDeviceSynchronize());
            if (mode == "explicit") {
                cudaGraphNode_t up, kn, ow;
                CK(cudaGraphCreate(&graph, 0));
                CK(cudaGraphAddMemcpyNode1D(&up, graph, nullptr, 0, in, pinned, n * sizeof(float),
                                            cudaMemcpyHostToDevice));
                void *args[] = {&out, &in, &e, &n};
                cudaKernelNodeParams kp = {};
                kp.func = (void *)kd_capture_kernel;
                kp.gridDim = dim3(grid);
                kp.blockDim = dim3(BLOCK);
                kp.kernelParams = args;
                CK(cudaGraphAddKernelNode(&kn, graph, &up, 1, &kp));
                cudaMemsetParams ms = {};
                ms.dst = in;
                ms.value = 0xff;
                ms.elementSize = 1;
                ms.width = n * sizeof(float);
                ms.height = 1;
                ms.pitch = n * sizeof(float);
                CK(cudaGraphAddMemsetNode(&ow, graph, &kn, 1, &ms));
            } else {
                CK(cudaStreamBeginCapture(gs, cudaStreamCaptureModeGlobal));
                CK(cudaMemcpyAsync(in, pinned, n * sizeof(float), cudaMemcpyHostToDevice, gs));
                kd_capture_kernel<<<grid, BLOCK, 0, gs>>>(out, in, e, n);
                CK(cudaGetLastError());
                CK(cudaMemsetAsync(in, 0xff, n * sizeof(float), gs));
                CK(cudaStreamEndCapture(gs, &graph));
            }
            if (mode == "child") { // the graph as the one node of an outer graph (which clones it)
                cudaGraph_t outer;
                cudaGraphNode_t cn;
                CK(cudaGraphCreate(&outer, 0));
                CK(cudaGraphAddChildGraphNode(&cn, outer, nullptr, 0, graph));
                CK(cudaGraphDestroy(graph));
                graph = outer;
            }
            CK(cudaGraphInstantiate(&exec, graph, 0));
            if (mode == "changed") { // the same parameters set again: still a change after instantiation
                size_t count = 0;
                CK(cudaGraphGetNodes(graph, nullptr, &count));
                std::vector<cudaGraphNode_t> nodes(count);
                CK(cudaGraphGetNodes(graph, nodes.data(), &count));
                for (cudaGraphNode_t node : nodes) {
                    cudaGraphNodeType type;
                    CK(cudaGraphNodeGetType(node, &type));
                    if (type != cudaGraphNodeTypeKernel)
                        continue;
                    cudaKernelNodeParams kp;
                    CK(cudaGraphKernelNodeGetParams(node, &kp));
                    CK(cudaGraphExecKernelNodeSetParams(exec, node, &kp));
                }
            }
        }
        cudaStream_t st = w == 3 ? gs : 0;
        for (int l = 0; l < LAUNCHES; l++) {
            const int r = l - 1; // l = 0: the warm-up, not timed
            if (r >= 0) {
                CK(cudaDeviceSynchronize());
                CK(cudaMemsetAsync(flush, r & 0xff, FLUSH_BYTES, st));
                CK(cudaEventRecord(start[r], st));
            }
            if (w == 3) {
                CK(cudaGraphLaunch(exec, gs));
            } else if (w == 0) {
                kd_capture_kernel<<<grid, BLOCK>>>(out, in, e, n);
                CK(cudaGetLastError());
            } else if (w == 1) {
                cudaLaunchConfig_t cfg = {};
                cudaLaunchAttribute attr[1];
                cfg.gridDim = dim3(grid);
                cfg.blockDim = dim3(BLOCK);
                cfg.dynamicSmemBytes = 0;
                cfg.stream = 0;
                if (major >= 9) {
                    attr[0].id = cudaLaunchAttributeClusterDimension;
                    attr[0].val.clusterDim.x = 2;
                    attr[0].val.clusterDim.y = 1;
                    attr[0].val.clusterDim.z = 1;
                    cfg.attrs = attr;
                    cfg.numAttrs = 1;
                    cluster = 2;
                }
                CK(cudaLaunchKernelEx(&cfg, kd_capture_kernel, out, (const float *)in, e, n));
            } else {
                void *args[] = {&out, &in, &e, &n};
                CKD(cuLaunchKernel(fn, grid, 1, 1, BLOCK, 1, 1, 0, 0, args, nullptr));
            }
            if (r >= 0)
                CK(cudaEventRecord(stop[r], st));
        }
        CK(cudaDeviceSynchronize());
        std::vector<float> ms(REPS);
        for (int r = 0; r < REPS; r++)
            CK(cudaEventElapsedTime(&ms[r], start[r], stop[r]));
        std::sort(ms.begin(), ms.end());
        double median_us = 1000.0 * 0.5 * (ms[(REPS - 1) / 2] + ms[REPS / 2]);
        printf("launch %d way %s first_k %d launches %d n %d grid %u block %d cluster %d median_us %.3f\n", w + 1,
               ways[w], w * LAUNCHES + 1, LAUNCHES, n, grid, BLOCK, cluster, median_us);
        fflush(stdout);

        std::vector<float> hout(n);
        CK(cudaMemcpy(hout.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
        char path[4096];
        snprintf(path, sizeof path, "%s/out-%d.bin", argv[1], w + 1);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(hout.data(), sizeof(float), n, f) != (size_t)n || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return 1;
        }
        if (w == 3) { // the input the graph's first node uploads
            snprintf(path, sizeof path, "%s/in-%d.bin", argv[1], w + 1);
            f = fopen(path, "wb");
            if (!f || fwrite(hin.data(), sizeof(float), n, f) != (size_t)n || fclose(f) != 0) {
                fprintf(stderr, "cannot write %s\n", path);
                return 1;
            }
            CK(cudaGraphExecDestroy(exec));
            CK(cudaGraphDestroy(graph));
            CK(cudaFreeHost(pinned));
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
    CK(cudaFree(bias));
    CK(cudaFree(flush));
    CK(cudaStreamDestroy(gs));
    return 0;
}
