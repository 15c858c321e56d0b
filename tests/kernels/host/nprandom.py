# np.random inside njit functions (compiler/types/infer_nprandom.c,
# compiler/lower/lower_nprandom.c, common/nprandom.c), checked against
# Numba bit for bit by tests/e2e/run_nprandom_oracle.py: each kernel seeds
# Numba's per-thread generator, then draws.
import numpy as np
from numba import njit, prange
from numpy import random as npr


@njit
def random_n(seed, n):
    np.random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.random()
    return out


@njit
def random_size(seed, n):
    np.random.seed(seed)
    return np.random.random(n)


@njit
def random_kw(seed):
    np.random.seed(seed)
    return np.random.random(size=(2, 3))


@njit
def random_0d(seed):
    np.random.seed(seed)
    return np.random.random(())


@njit
def random_none(seed):
    np.random.seed(seed)
    return np.random.random(None)


@njit
def aliases(seed):
    np.random.seed(seed)
    out = np.empty(9)
    out[0] = np.random.random_sample()
    out[1] = np.random.sample()
    out[2] = np.random.ranf()
    out[3] = np.random.rand()
    out[4:6] = np.random.random_sample(2)
    out[6:8] = np.random.ranf(2)
    out[8] = np.random.sample((1,))[0]
    return out


@njit
def rand_dims(seed, a, b):
    np.random.seed(seed)
    return np.random.rand(a, b)


@njit
def randn_dims(seed, a, b, c):
    np.random.seed(seed)
    return np.random.randn(a, b, c)


@njit
def randn_scalar(seed):
    np.random.seed(seed)
    return np.random.randn()


@njit
def uniform_n(seed, lo, hi, n):
    np.random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.uniform(lo, hi)
    return out


@njit
def uniform_size(seed, lo, hi, n):
    np.random.seed(seed)
    return np.random.uniform(lo, hi, n)


@njit
def uniform_default(seed):
    np.random.seed(seed)
    return np.random.uniform()


@njit
def uniform_kw(seed):
    np.random.seed(seed)
    return np.random.uniform(low=-2, high=3, size=(2, 2))


@njit
def uniform_one(seed):
    np.random.seed(seed)
    return np.random.uniform(1.0)


@njit
def normal_n(seed, n):
    np.random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.normal()
    return out


@njit
def normal_args(seed, loc, scale, n):
    np.random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.normal(loc, scale)
    return out


@njit
def normal_loc(seed, loc):
    np.random.seed(seed)
    return np.random.normal(loc)


@njit
def normal_size(seed, loc, scale, a, b):
    np.random.seed(seed)
    return np.random.normal(loc, scale, (a, b))


@njit
def normal_mix(seed):
    # the cached second value of the pair survives other draws
    np.random.seed(seed)
    out = np.empty(6)
    out[0] = np.random.normal()
    out[1] = np.random.random()
    out[2] = np.random.normal()
    out[3] = np.random.standard_normal()
    np.random.seed(seed)  # drops the cached value
    out[4] = np.random.normal()
    out[5] = np.random.normal()
    return out


@njit
def standard_normal_size(seed, n):
    np.random.seed(seed)
    return np.random.standard_normal(n)


@njit
def standard_normal_kw(seed):
    np.random.seed(seed)
    return np.random.standard_normal(size=(3, 2))


@njit
def exponential_n(seed, scale, n):
    np.random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.exponential(scale)
    return out


@njit
def exponential_size(seed, scale, n):
    np.random.seed(seed)
    return np.random.exponential(scale, n)


@njit
def exponential_default(seed):
    np.random.seed(seed)
    return np.random.exponential()


@njit
def standard_exponential_size(seed, n):
    np.random.seed(seed)
    return np.random.standard_exponential(n)


@njit
def standard_exponential_one(seed):
    np.random.seed(seed)
    return np.random.standard_exponential()


@njit
def randint_n(seed, lo, hi, n):
    np.random.seed(seed)
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = np.random.randint(lo, hi)
    return out


@njit
def randint_mixed(seed, n):
    # inline single draws across the generator's 624-word refills, mixed
    # with random() and an int32 range
    np.random.seed(seed)
    out = np.empty((n, 3))
    for i in range(n):
        out[i, 0] = np.random.randint(0, 7)
        out[i, 1] = np.random.random()
        out[i, 2] = np.random.randint(np.int32(-100), np.int32(100))
    return out


@njit
def randint_high(seed, hi):
    np.random.seed(seed)
    return np.random.randint(hi)


@njit
def randint_two(seed, lo, hi):
    np.random.seed(seed)
    return np.random.randint(lo, hi)


@njit
def randint_size(seed, lo, hi, n):
    np.random.seed(seed)
    return np.random.randint(lo, hi, n)


@njit
def randint_elems(seed, a, n):
    # the widest of the element types decides the bits drawn
    np.random.seed(seed)
    return np.random.randint(a[0], a[1], n)


@njit
def randint_elem_scalar(seed, a):
    np.random.seed(seed)
    return np.random.randint(a[0], a[1])


@njit
def randint_kw(seed):
    np.random.seed(seed)
    return np.random.randint(low=-5, high=5, size=(2, 3))


@njit
def randint_low_size(seed):
    np.random.seed(seed)
    return np.random.randint(5, size=3)


@njit
def randint_float(seed):
    np.random.seed(seed)
    return np.random.randint(0.0, 5.0)


@njit
def shuffle_arr(seed, a):
    np.random.seed(seed)
    np.random.shuffle(a)
    return a


@njit
def shuffle_view(seed, a):
    np.random.seed(seed)
    v = a[::-2]
    np.random.shuffle(v)
    return a


@njit
def shuffle_number(seed):
    np.random.seed(seed)
    x = 3
    np.random.shuffle(x)
    return x


@njit
def permutation_int(seed, n):
    np.random.seed(seed)
    return np.random.permutation(n)


@njit
def permutation_arr(seed, a):
    np.random.seed(seed)
    return np.random.permutation(a)


@njit
def permutation_float(seed):
    np.random.seed(seed)
    return np.random.permutation(2.5)


@njit
def choice_int(seed, n):
    np.random.seed(seed)
    return np.random.choice(n)


@njit
def choice_arr(seed, a):
    np.random.seed(seed)
    return np.random.choice(a)


@njit
def choice_size(seed, a, n):
    np.random.seed(seed)
    return np.random.choice(a, n)


@njit
def choice_tuple(seed, a):
    np.random.seed(seed)
    return np.random.choice(a, (2, 3))


@njit
def choice_noreplace(seed, a, n):
    np.random.seed(seed)
    return np.random.choice(a, n, False)


@njit
def choice_kw(seed, a, n, rep):
    np.random.seed(seed)
    return np.random.choice(a, size=n, replace=rep)


@njit
def choice_p(seed, a):
    np.random.seed(seed)
    return np.random.choice(a, 3, True, None)


@njit
def choice_2d(seed, a):
    np.random.seed(seed)
    return np.random.choice(a, 2)


@njit
def seed_wrap(seed):
    # seeds are cast to uint32 as Numba's
    np.random.seed(seed)
    return np.random.random(3)


@njit
def seed_float(seed):
    np.random.seed(seed)
    return np.random.random()


@njit
def seed_bool(seed):
    np.random.seed(seed)
    return np.random.random()


@njit
def from_import(seed):
    npr.seed(seed)
    return npr.normal(0.0, 2.0, 4)


@njit
def size_float(seed):
    np.random.seed(seed)
    return np.random.random(2.0)


@njit
def normal_complex(seed):
    np.random.seed(seed)
    return np.random.normal(1j)


@njit
def after_one_period(seed):
    # past one MT19937 block of 624 words: the state is regenerated
    np.random.seed(seed)
    a = np.random.random(400)
    return np.random.randint(0, 1 << 40, 5) + a[:5].astype(np.int64)


@njit(parallel=True)
def prange_draws(n):
    out = np.empty(n)
    for i in prange(n):
        out[i] = np.random.uniform(2.0, 3.0)
    return out


@njit(parallel=True)
def prange_seeded(n):
    out = np.empty(n)
    for i in prange(n):
        np.random.seed(i)
        out[i] = np.random.random()
    return out


# the other distributions: one parameter set through a generic kernel per
# arity, each seeded first


@njit
def gamma2(seed, shape, scale, n):
    np.random.seed(seed)
    return np.random.gamma(shape, scale, n)


@njit
def gamma1(seed, shape):
    np.random.seed(seed)
    out = np.empty(6)
    for i in range(6):
        out[i] = np.random.gamma(shape)
    return out


@njit
def standard_gamma(seed, shape, n):
    np.random.seed(seed)
    return np.random.standard_gamma(shape, n)


@njit
def beta(seed, a, b, n):
    np.random.seed(seed)
    return np.random.beta(a, b, n)


@njit
def beta_one(seed, a, b):
    np.random.seed(seed)
    return np.random.beta(a, b)


@njit
def chisquare(seed, df, n):
    np.random.seed(seed)
    return np.random.chisquare(df, n)


@njit
def f_dist(seed, dfnum, dfden, n):
    np.random.seed(seed)
    return np.random.f(dfnum, dfden, n)


@njit
def lognormal(seed, mean, sigma, n):
    np.random.seed(seed)
    return np.random.lognormal(mean, sigma, n)


@njit
def lognormal_default(seed):
    np.random.seed(seed)
    return np.random.lognormal() + np.random.lognormal(1.0)


@njit
def laplace(seed, loc, scale, n):
    np.random.seed(seed)
    return np.random.laplace(loc, scale, n)


@njit
def laplace_default(seed):
    np.random.seed(seed)
    return np.random.laplace() + np.random.laplace(2)


@njit
def logistic(seed, loc, scale, n):
    np.random.seed(seed)
    return np.random.logistic(loc, scale, n)


@njit
def gumbel(seed, loc, scale, n):
    np.random.seed(seed)
    return np.random.gumbel(loc, scale, n)


@njit
def gumbel_default(seed):
    np.random.seed(seed)
    return np.random.gumbel()


@njit
def weibull(seed, a, n):
    np.random.seed(seed)
    return np.random.weibull(a, n)


@njit
def pareto(seed, a, n):
    np.random.seed(seed)
    return np.random.pareto(a, n)


@njit
def power(seed, a, n):
    np.random.seed(seed)
    return np.random.power(a, n)


@njit
def rayleigh(seed, scale, n):
    np.random.seed(seed)
    return np.random.rayleigh(scale, n)


@njit
def rayleigh_default(seed):
    np.random.seed(seed)
    return np.random.rayleigh()


@njit
def standard_cauchy(seed, n):
    np.random.seed(seed)
    return np.random.standard_cauchy(n)


@njit
def standard_t(seed, df, n):
    np.random.seed(seed)
    return np.random.standard_t(df, n)


@njit
def vonmises(seed, mu, kappa, n):
    np.random.seed(seed)
    return np.random.vonmises(mu, kappa, n)


@njit
def wald(seed, mean, scale, n):
    np.random.seed(seed)
    return np.random.wald(mean, scale, n)


@njit
def triangular(seed, left, mode, right, n):
    np.random.seed(seed)
    return np.random.triangular(left, mode, right, n)


@njit
def triangular_one(seed, left, mode, right):
    np.random.seed(seed)
    return np.random.triangular(left, mode, right)


# the integer distributions, noncentral_chisquare, multinomial, dirichlet
@njit
def poisson(seed, lam, n):
    np.random.seed(seed)
    return np.random.poisson(lam, n)


@njit
def poisson_one(seed, lam):
    np.random.seed(seed)
    out = np.empty(3, np.int64)
    out[0] = np.random.poisson(lam)
    out[1] = np.random.poisson()
    out[2] = np.random.poisson(lam=lam, size=None)
    return out


@njit
def poisson_shape(seed, lam):
    np.random.seed(seed)
    return np.random.poisson(lam, (2, 3))


@njit
def poisson_0d(seed, lam):
    np.random.seed(seed)
    return np.random.poisson(lam, ())


@njit
def binomial(seed, n, p, size):
    np.random.seed(seed)
    return np.random.binomial(n, p, size)


@njit
def binomial_one(seed, n, p):
    np.random.seed(seed)
    return np.random.binomial(n, p)


@njit
def binomial_kw(seed):
    np.random.seed(seed)
    return np.random.binomial(p=0.25, n=40, size=(3, 2))


@njit
def binomial_float_n(seed):
    np.random.seed(seed)
    return np.random.binomial(4.0, 0.5)


@njit
def geometric(seed, p, n):
    np.random.seed(seed)
    return np.random.geometric(p, n)


@njit
def geometric_one(seed, p):
    np.random.seed(seed)
    return np.random.geometric(p)


@njit
def negative_binomial(seed, n, p, size):
    np.random.seed(seed)
    out = np.empty(size, np.int64)
    for i in range(size):
        out[i] = np.random.negative_binomial(n, p)
    return out


@njit
def negative_binomial_size(seed):
    np.random.seed(seed)
    return np.random.negative_binomial(3, 0.5, 4)


@njit
def negative_binomial_one(seed, n, p):
    np.random.seed(seed)
    return np.random.negative_binomial(n, p)


@njit
def hypergeometric(seed, ngood, nbad, nsample, size):
    np.random.seed(seed)
    return np.random.hypergeometric(ngood, nbad, nsample, size)


@njit
def hypergeometric_one(seed, ngood, nbad, nsample):
    np.random.seed(seed)
    return np.random.hypergeometric(ngood, nbad, nsample)


@njit
def logseries(seed, p, n):
    np.random.seed(seed)
    return np.random.logseries(p, n)


@njit
def logseries_one(seed, p):
    np.random.seed(seed)
    return np.random.logseries(p)


@njit
def zipf(seed, a, n):
    np.random.seed(seed)
    return np.random.zipf(a, n)


@njit
def zipf_one(seed, a):
    np.random.seed(seed)
    return np.random.zipf(a)


@njit
def noncentral_chisquare(seed, df, nonc, n):
    np.random.seed(seed)
    return np.random.noncentral_chisquare(df, nonc, n)


@njit
def noncentral_chisquare_one(seed, df, nonc):
    np.random.seed(seed)
    return np.random.noncentral_chisquare(df, nonc)


@njit
def noncentral_chisquare_shape(seed, df, nonc):
    np.random.seed(seed)
    return np.random.noncentral_chisquare(df, nonc, size=(2, 2))


@njit
def multinomial_tuple(seed, n):
    np.random.seed(seed)
    return np.random.multinomial(n, (0.2, 0.3, 0.5))


@njit
def multinomial_arr(seed, n, pvals, size):
    np.random.seed(seed)
    return np.random.multinomial(n, pvals, size)


@njit
def multinomial_shape(seed, n, pvals):
    np.random.seed(seed)
    return np.random.multinomial(n, pvals, size=(2, 3))


@njit
def multinomial_0d(seed, n, pvals):
    np.random.seed(seed)
    return np.random.multinomial(n, pvals, ())


@njit
def multinomial_float_n(seed, pvals):
    np.random.seed(seed)
    return np.random.multinomial(2.5, pvals)


@njit
def dirichlet_tuple(seed):
    np.random.seed(seed)
    return np.random.dirichlet((1.0, 2.5, 0.5))


@njit
def dirichlet_arr(seed, alpha, size):
    np.random.seed(seed)
    return np.random.dirichlet(alpha, size)


@njit
def dirichlet_shape(seed, alpha):
    np.random.seed(seed)
    return np.random.dirichlet(alpha, size=(2, 2))


@njit
def dirichlet_none(seed, alpha):
    np.random.seed(seed)
    return np.random.dirichlet(alpha, None)


@njit
def dirichlet_number(seed):
    np.random.seed(seed)
    return np.random.dirichlet(2.0)
