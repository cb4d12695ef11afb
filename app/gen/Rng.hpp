// Portable random choices: std::mt19937_64 is fully specified, the std distributions are not.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

namespace ptxmc::gen {

class Rng {
public:
    explicit Rng(std::uint64_t seed) : engine_(seed) {}

    /** Uniform in [0, n), by rejection so that no value is favoured (n > 0). */
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        for (;;) {
            const std::uint64_t x = engine_();
            if (x < limit) return x % n;
        }
    }
    /** Uniform in [lo, hi]. */
    int range(int lo, int hi) {
        return lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo + 1)));
    }
    bool chance(int percent) { return static_cast<int>(below(100)) < percent; }

    template <class T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
    template <class T> T pick(std::initializer_list<T> v) { return v.begin()[below(v.size())]; }

    /** An index drawn with the given non-negative weights (at least one positive). */
    int weighted(const std::vector<int>& weights) {
        std::uint64_t total = 0;
        for (int w : weights)
            total += static_cast<std::uint64_t>(w);
        std::uint64_t x = below(total);
        for (std::size_t i = 0; i < weights.size(); ++i) {
            if (x < static_cast<std::uint64_t>(weights[i])) return static_cast<int>(i);
            x -= static_cast<std::uint64_t>(weights[i]);
        }
        return static_cast<int>(weights.size()) - 1;
    }

private:
    std::mt19937_64 engine_;
};

} // namespace ptxmc::gen
