// A templated axpy instantiated explicitly for the element types a library ships.
template <typename T>
__global__ void axpy(T alpha, const T *x, T *y, int num_elements) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_elements) y[i] = alpha * x[i] + y[i];
}

template __global__ void axpy<float>(float, const float *, float *, int);
template __global__ void axpy<double>(double, const double *, double *, int);
