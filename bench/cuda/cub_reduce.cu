// CUB's DeviceReduce::Sum, the yardstick of issue 15's reduce goal, timed
// as cuda_bench times uf_reduce: inputs filled as cuda_bench fills input
// 0, the temporary storage and the one-element result allocated once,
// CALLS sums on one stream and a synchronize per round, the median round
// per call. Built by bench/cuda/run.py with the toolkit's nvcc (CCCL ships
// with it) where nvcc exists, or taken from a kit's bin/.
//
//   cub_reduce N CALLS ROUNDS
//
// Prints one JSON line: {"peer": "cub", "case": "reduce", "dtype":
// "float64", "n", "us", "bytes", "sum": [sum, |sum|]} or {"peer": "cub",
// "case": "reduce", "error": ...}.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cub/device/device_reduce.cuh>

static int fail(const char *what, cudaError_t e)
{
    std::printf("{\"peer\": \"cub\", \"case\": \"reduce\", \"dtype\": "
                "\"float64\", \"error\": \"%s: %s\"}\n",
                what, cudaGetErrorString(e));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: cub_reduce N CALLS ROUNDS\n");
        return 2;
    }
    long long n = std::atoll(argv[1]);
    int calls = std::atoi(argv[2]), rounds = std::atoi(argv[3]);
    if (n < 1 || calls < 1 || rounds < 1) {
        std::fprintf(stderr, "cub_reduce: N, CALLS and ROUNDS must be > 0\n");
        return 2;
    }
    std::vector<double> h((size_t)n);
    for (long long i = 0; i < n; i++)
        h[(size_t)i] = 0.5 + std::fmod((double)i * 0.6180339887498949, 1.0);
    double *in = nullptr, *out = nullptr;
    void *tmp = nullptr;
    size_t tmp_bytes = 0;
    cudaStream_t s;
    cudaError_t e;
    if ((e = cudaStreamCreate(&s)) != cudaSuccess)
        return fail("cudaStreamCreate", e);
    if ((e = cudaMalloc(&in, n * sizeof(double))) != cudaSuccess ||
        (e = cudaMalloc(&out, sizeof(double))) != cudaSuccess)
        return fail("cudaMalloc", e);
    if ((e = cudaMemcpy(in, h.data(), n * sizeof(double),
                        cudaMemcpyHostToDevice)) != cudaSuccess)
        return fail("cudaMemcpy", e);
    if ((e = cub::DeviceReduce::Sum(nullptr, tmp_bytes, in, out, n, s)) !=
            cudaSuccess ||
        (e = cudaMalloc(&tmp, tmp_bytes)) != cudaSuccess)
        return fail("temporary storage", e);
    std::vector<double> t((size_t)rounds);
    for (int r = -1; r < rounds; r++) { // round -1: warm-up
        auto t0 = std::chrono::steady_clock::now();
        for (int c = 0; c < calls; c++)
            if ((e = cub::DeviceReduce::Sum(tmp, tmp_bytes, in, out, n, s)) !=
                cudaSuccess)
                return fail("DeviceReduce::Sum", e);
        if ((e = cudaStreamSynchronize(s)) != cudaSuccess)
            return fail("cudaStreamSynchronize", e);
        std::chrono::duration<double> d =
            std::chrono::steady_clock::now() - t0;
        if (r >= 0)
            t[(size_t)r] = d.count() / calls;
    }
    std::sort(t.begin(), t.end());
    double med = rounds % 2 ? t[rounds / 2]
                            : 0.5 * (t[rounds / 2 - 1] + t[rounds / 2]);
    double v = 0;
    if ((e = cudaMemcpy(&v, out, sizeof v, cudaMemcpyDeviceToHost)) !=
        cudaSuccess)
        return fail("cudaMemcpy", e);
    std::printf("{\"peer\": \"cub\", \"case\": \"reduce\", \"dtype\": "
                "\"float64\", \"n\": %lld, \"us\": %.4f, \"bytes\": %lld, "
                "\"sum\": [%.17g, %.17g]}\n",
                n, 1e6 * med, n * 8, v, std::fabs(v));
    cudaFree(tmp);
    cudaFree(out);
    cudaFree(in);
    cudaStreamDestroy(s);
    return 0;
}
