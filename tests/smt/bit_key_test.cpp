// smt/BitKey: a vector<bool> in a search state's key, a word at a time as bit by bit.
#include "smt/BitKey.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

namespace {

/** The key's layout, bit by bit: bit i at bit i % 8 of byte i / 8, `skip`'s bits as 0. */
std::string byBits(const std::vector<bool>& bits, const std::vector<bool>* skip) {
    std::string k((bits.size() + 7) / 8, '\0');
    for (std::size_t i = 0; i < bits.size(); ++i)
        if (bits[i] && (skip == nullptr || !(*skip)[i]))
            k[i / 8] = static_cast<char>(static_cast<unsigned char>(k[i / 8]) | (1U << (i % 8)));
    return k;
}

} // namespace

TEST_CASE("a state key's bits are the same a word at a time as bit by bit", "[schedules]") {
    std::mt19937 rng(11);
    std::bernoulli_distribution set(0.4);
    for (std::size_t n : {0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200, 4600}) {
        std::vector<bool> bits(n), skip(n);
        for (std::size_t i = 0; i < n; ++i) {
            bits[i] = set(rng);
            skip[i] = set(rng);
        }
        // A vector shrunk from a longer one keeps the bits past its end in its last word.
        std::vector<bool> shrunk(n + 70, true);
        for (std::size_t i = 0; i < n; ++i)
            shrunk[i] = bits[i];
        shrunk.resize(n);
        INFO(n);
        const std::vector<bool>* skips[] = {nullptr, &skip};
        for (const std::vector<bool>* s : skips) {
            std::string k = "prefix";
            ptxmc::engine::schedules::appendBits(k, bits, s);
            CHECK(k == "prefix" + byBits(bits, s));
            std::string fromShrunk;
            ptxmc::engine::schedules::appendBits(fromShrunk, shrunk, s);
            CHECK(fromShrunk == byBits(bits, s));
        }
    }
}
