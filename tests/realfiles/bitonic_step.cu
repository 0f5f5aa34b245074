// One step of a bitonic sort network over a power-of-two array, sorted in place.
__global__ void bitonic_sort_step(float *dev_values, int j, int k) {
    unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
    unsigned int ixj = i ^ j;
    if (ixj > i) {
        bool up = (i & k) == 0;
        float a = dev_values[i], b = dev_values[ixj];
        if ((up && a > b) || (!up && a < b)) {
            dev_values[i] = b;
            dev_values[ixj] = a;
        }
    }
}
