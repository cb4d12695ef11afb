// Where a search is (its encoding, or which solver query), for a caller that stops waiting.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

namespace ptxmc::engine {

/**
 * Written by the search's thread, read by the thread that waits for it: when a solver deaf to
 * its interrupt is left behind at the time limit (check/LeftBehind.hpp), the Unknown still
 * says how far the check got.
 */
class SearchProgress {
public:
    void encoding() { set("it was still building the encoding"); }
    /** Building an encoding (`hangs`: the one of executions that hang), at `what` ("axiom
     *  Causality"): where a memory limit stops a large program, and which rule costs it. */
    void encodingAt(bool hangs, const std::string& what) {
        set(std::string("it was still building the encoding") +
            (hangs ? " of executions that hang" : "") + ", at " + what);
    }
    void query(std::size_t number, const char* purpose) {
        set("it was in solver query " + std::to_string(number) + " (" + purpose + ")");
    }
    /** A step outside the numbered queries (`what`: "the hang pre-check ..."). */
    void step(const std::string& what) { set("it was in " + what); }
    /** The last report, in words; empty: none came. */
    std::string where() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return where_;
    }

private:
    void set(std::string words) {
        std::lock_guard<std::mutex> lock(mutex_);
        where_ = std::move(words);
    }
    mutable std::mutex mutex_;
    std::string where_;
};

} // namespace ptxmc::engine
