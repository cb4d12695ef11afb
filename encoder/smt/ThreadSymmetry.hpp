// Threads that swapping maps onto each other in a program's schedules (the hang search's symmetry).
#pragma once

#include "ir/Program.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ptxmc::engine::schedules {

/** A thread of a class: the events that set it apart (a warp that also initializes the
 *  barriers first), then the events it shares with its class, in program order. */
struct ClassMember {
    int thread = -1;
    std::vector<int> prefix;
    std::vector<int> events;
};

/**
 * Classes of interchangeable threads. Each class's first member has no prefix, and every
 * member has as many events. Once a member's prefix has run, swapping its events with the first
 * member's, event for event, maps the scheduled events' order and every scheduled event's
 * attributes onto themselves: an automorphism of the schedules from there on. So a state and its
 * image under any permutation of the members whose prefixes ran have the same schedules up to
 * that permutation (and the same hangs).
 */
using ThreadClasses = std::vector<std::vector<ClassMember>>;

/** What a search compares of a scheduled event (nullopt: its thread is in no class). */
using EventSignature = std::function<std::optional<std::vector<std::int64_t>>(int)>;

/**
 * The classes of `p`'s threads (those with two or more members). `scheduled`: the events the
 * search schedules; `preds[b]` for each of them: the scheduled events it waits for (sorted); an
 * event of no thread belongs to the thread that issued it. A thread joins a class when the
 * signatures of its last events equal the first member's in order (the rest is its prefix), and
 * the swap maps every `preds[b]`, the prefix left out, onto `preds[swap(b)]`; swaps of the first
 * member with each of the others generate every permutation of the members.
 */
ThreadClasses findThreadClasses(const ir::Program& p, const std::vector<int>& scheduled,
                                const std::vector<std::vector<int>>& preds,
                                const EventSignature& signature);

} // namespace ptxmc::engine::schedules
