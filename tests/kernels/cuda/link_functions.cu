// Foreign device functions for link.py, written as numba-cuda's
// documentation writes them: extern "C" so that the symbol is the name
// given to cuda.declare_device.

// numba's ABI: the result through the first argument, 0 for success
extern "C" __device__ int mul(float *return_value, float x, float y)
{
    *return_value = x * y;
    return 0;
}

// abi='c': the result returned
extern "C" __device__ double fma3(double a, double b, double c)
{
    return a * b + c;
}
