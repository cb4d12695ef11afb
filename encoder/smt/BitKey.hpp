// A vector<bool> appended to a search state's key, packed eight bits to a byte.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace ptxmc::engine::schedules {

/**
 * appendBits a word at a time, where the standard library stores a vector<bool> as words whose
 * bytes, on a little-endian machine, are the key's bytes (libstdc++); whether it did. A state's
 * key holds a bit per event: bit by bit, they were 55% of each object's search on CUTLASS
 * example 48 (4,600 events; bench/history.md, 2026-12-05 (2)).
 */
inline bool appendWords(std::string& k, const std::vector<bool>& bits,
                        const std::vector<bool>* skip) {
#if defined(__GLIBCXX__)
    if constexpr (std::endian::native == std::endian::little) {
        if (skip != nullptr && skip->size() != bits.size()) return false;
        using Word = std::remove_cv_t<std::remove_pointer_t<decltype(bits.begin()._M_p)>>;
        constexpr std::size_t kBits = sizeof(Word) * 8;
        const Word* words = bits.begin()._M_p;
        const Word* skips = skip != nullptr ? skip->begin()._M_p : nullptr;
        const std::size_t bytes = (bits.size() + 7) / 8, start = k.size();
        k.resize(start + bytes);
        for (std::size_t w = 0; w * kBits < bits.size(); ++w) {
            Word x = words[w];
            if (skips != nullptr) x &= ~skips[w];
            const std::size_t past = bits.size() - w * kBits; // this word's bits in the vector
            if (past < kBits) x &= (Word{1} << past) - 1;
            std::memcpy(&k[start + w * sizeof(Word)], &x,
                        std::min(sizeof(Word), bytes - w * sizeof(Word)));
        }
        return true;
    }
#endif
    (void)k, (void)bits, (void)skip;
    return false;
}

/** Appends `bits` packed eight to a byte (bit i at bit i % 8 of byte i / 8), those `skip`
 *  names as 0. */
inline void appendBits(std::string& k, const std::vector<bool>& bits,
                       const std::vector<bool>* skip = nullptr) {
    if (appendWords(k, bits, skip)) return;
    unsigned char byte = 0;
    for (std::size_t i = 0; i < bits.size(); ++i) {
        if (bits[i] && (skip == nullptr || !(*skip)[i]))
            byte = static_cast<unsigned char>(byte | (1U << (i % 8)));
        if (i % 8 == 7 || i + 1 == bits.size()) {
            k.push_back(static_cast<char>(byte));
            byte = 0;
        }
    }
}

} // namespace ptxmc::engine::schedules
