/*
 * inlines: a C++ program for the DWARF unwinding tests (built -O2 -g
 * -fomit-frame-pointer): namespaces, a template, an anonymous namespace,
 * a member function and functions inlined into their callers, so that
 * perf script prints "(inlined)" frames:
 *
 *   main -> shapes::Runner::run -> (anonymous namespace)::step<N> -> mix (inlined) -> spin
 *   main -> shapes::Runner::run -> accumulate (inlined lambda) -> std::sort -> compare
 */
#include <algorithm>
#include <cstdlib>
#include <vector>

volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        sink = sink * 2862933555777941757ul + 1;
}

static inline __attribute__((always_inline)) void mix(unsigned long n)
{
    spin(n);
    sink ^= n;
}

namespace {
template <int N> __attribute__((noinline)) void step(unsigned long n)
{
    mix(n * N);
    sink += N;
}
} // namespace

namespace shapes {
struct Runner {
    unsigned long n;
    __attribute__((noinline)) void run();
};

void Runner::run()
{
    for (int round = 0; round < 4; round++) {
        step<1>(n);
        step<2>(n);
        auto accumulate = [&](int count) {
            std::vector<unsigned long> v(count);
            for (int i = 0; i < count; i++)
                v[i] = (sink + i * 7919ul) % 100003;
            std::sort(v.begin(), v.end(), [](unsigned long a, unsigned long b) { return a > b; });
            sink += v[0];
        };
        accumulate(200000);
    }
}
} // namespace shapes

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    shapes::Runner r{(unsigned long)(seconds * 6e7)};
    r.run();
    return 0;
}
