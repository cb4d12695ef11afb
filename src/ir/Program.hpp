// A lowered litmus test: events, locations and the final condition over them.
#pragma once

#include "ir/Condition.hpp"
#include "ir/Event.hpp"

#include <map>
#include <string>
#include <vector>

namespace ptxmc::ir {

/** One physical memory cell (a row of a tmem location counts as its own cell). */
struct Location {
    int id = -1;
    std::string name; ///< display name: "x", "a@1", "t@0[2]"
    Space space = Space::None;
    int cta = -1;             ///< owning CTA for shared/tmem/mbarrier
    int init = -1;            ///< event id of its initial write (memory) or -1 (mbarrier)
    std::int64_t mbCount = 0; ///< mbarrier: initial expected count (0: uninitialised)
    /// 64 when a 64-bit access reaches it: its values (initial, final, in the condition) are
    /// 64-bit words; 32 otherwise, the words read as signed 32-bit values
    int bits = 32;
};

/**
 * Where an unrolled path of a thread stops. Loops are unrolled to a bound (herd's and Dat3M's
 * convention); a path that would go round once more stops here, and executions in which it
 * does (guard != 0, once the gates before it pass) are left out of the final states.
 * Reaching it means a longer execution exists that the check does not cover, unless the last
 * iteration was a spin: it wrote nothing in this execution (none of `effects` happened) and
 * changes no register the next iteration does not set again (`spinEligible`). A spinning
 * iteration can be left out of any execution without changing its final state, so nothing
 * is lost (Dat3M's dynamic spin-loop detection; litmus/README.md, Control flow).
 */
struct Cut {
    bool spinEligible = false; ///< the loop body carries no register and only reads or fences
    std::vector<int> effects;  ///< writes the last iteration may perform
    int thread = -1;
    int position = 0;       ///< issue-level events of the thread before the cut
    ValuePtr guard;         ///< when the path reaches the cut (null: always)
    SourceLoc loc;          ///< the backward branch
    std::string text;       ///< that branch's instruction text
    std::vector<int> gates; ///< gates open at the cut (ir/Gates.hpp)
};

/**
 * A `nondet.pred` the lowering met: a predicate the program does not compute from its memory
 * (a comparison of floating-point values in a kernel), 0 or 1, both explored. Values name it
 * by its index (Value::choice).
 */
struct ChoiceSite {
    int thread = -1;
    SourceLoc loc;
    std::string text; ///< the instruction as written
};

struct ThreadInfo {
    int id = 0;
    int cta = 0, cluster = 0, gpu = 0;
    std::vector<int> events; ///< issue-level events in program order
    std::map<std::string, ValuePtr> finalRegisters;
};

/** A final-state reference resolved to a register value or a location. */
struct Observable {
    std::string name;  ///< as printed: "P1:r0", "x", "t@1[2]"
    ValuePtr reg;      ///< register: its final value
    int location = -1; ///< location: its final (coherence-last) value
    /// Its value is a 64-bit word (a 64-bit location, or a register a 64-bit operation or load
    /// defined); otherwise its low 32 bits, read as signed, are its value
    bool wide = false;
};

struct Program {
    std::string name;
    std::string file;
    std::vector<Event> events;
    std::vector<Location> locations;
    std::vector<ThreadInfo> threads;
    std::vector<Observable> observed; ///< condition refs first, then `locations`, no two alike
    Condition condition;              ///< over indices into `observed`
    std::string conditionText;        ///< the proposition as herd prints it
    std::vector<std::string> staticDeadlocks; ///< barriers nobody can complete, etc.
    std::vector<Cut> cuts;                    ///< where unrolled loops stop
    std::vector<ChoiceSite> choices;          ///< Value::Op::Choice operands, by index
    int unroll = 0;                           ///< the bound they were unrolled to
    /// The width of the engines' words: 64 when a 64-bit access or operation is lowered (the
    /// 32-bit operations then compute on the low halves), 32 otherwise
    int wordBits = 32;
};

} // namespace ptxmc::ir
