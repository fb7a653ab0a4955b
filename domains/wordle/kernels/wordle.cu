// Wordle guess ranking on the GPU: one block per guess; its threads count
// the candidates' feedback codes into a 243-bin histogram in shared memory,
// then one thread adds c·log2(c) (from a table the host computed) and c²
// over the bins in order — the same numbers in the same order as the CPU,
// so entropies agree bit for bit.

extern "C" __global__ void __launch_bounds__(256) rank_guesses(
    const unsigned char* __restrict__ codes, int answers, const unsigned int* __restrict__ candidates,
    int n, const double* __restrict__ count_log_count, double* sums, double* squares) {
    __shared__ unsigned int histogram[243];
    for (int b = threadIdx.x; b < 243; b += blockDim.x) histogram[b] = 0;
    __syncthreads();
    const unsigned char* row = codes + (size_t)blockIdx.x * answers;
    for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&histogram[row[candidates[i]]], 1u);
    __syncthreads();
    if (threadIdx.x == 0) {
        double sum = 0.0, square = 0.0;
        for (int b = 0; b < 243; b++) {
            unsigned int c = histogram[b];
            sum += count_log_count[c];
            square += (double)c * (double)c;
        }
        sums[blockIdx.x] = sum;
        squares[blockIdx.x] = square;
    }
}
