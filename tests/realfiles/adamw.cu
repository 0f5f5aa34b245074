// AdamW update (llm.c style): parameters and both moments are updated in place.
__device__ inline float lerp(float start, float end, float weight) { return fma(weight, end, fma(-weight, start, start)); }

__global__ void adamw_kernel(float *params_memory, const float *grads_memory, float *m_memory, float *v_memory,
                             long num_parameters, float learning_rate, float beta1, float beta2,
                             float beta1_correction, float beta2_correction, float eps, float weight_decay) {
    long i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_parameters) return;
    float grad = grads_memory[i];
    float m = lerp(grad, m_memory[i], beta1);
    float v = lerp(grad * grad, v_memory[i], beta2);
    m_memory[i] = m;
    v_memory[i] = v;
    m /= beta1_correction;
    v /= beta2_correction;
    params_memory[i] -= learning_rate * (m / (sqrtf(v) + eps) + weight_decay * params_memory[i]);
}
