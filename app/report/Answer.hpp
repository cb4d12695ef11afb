// A test's answer as expected.txt writes it: verdict, flag set and number of final states.
#pragma once

#include "report/EngineTypes.hpp"

#include <string>
#include <vector>

namespace ptxmc::report {

/**
 * Can `c` be part of a flag name? Names come from the model (`flag ... as NAME`), so expected.txt
 * and --fail-on-flag accept letters, digits, '_' and '-' without knowing which names exist.
 */
bool isFlagNameChar(char c);

/** The names of the flags a result raises: sorted, no duplicates. */
std::vector<std::string> flagNames(const std::vector<RaisedFlag>& flags);

/** `none`, or the names joined by commas: the value of a `flags=` field. */
std::string flagsText(const std::vector<std::string>& names);

/** The values of each allowed final state, in the result's (sorted) order. */
std::vector<std::vector<std::int64_t>> stateValues(const CheckResult& r);

/** The states of `x` that `y` does not hold (both sorted, as the engines return them). */
std::vector<std::vector<std::int64_t>>
statesOnlyIn(const std::vector<std::vector<std::int64_t>>& x,
             const std::vector<std::vector<std::int64_t>>& y);

/** `P1:r0=1; x=2;`: one state over the observed names. */
std::string stateText(const std::vector<std::string>& observed,
                      const std::vector<std::int64_t>& values);

/** `Never flags=none states=2`. */
std::string answerText(Observation o, const std::vector<std::string>& flags, std::size_t states);

/** The answer an expectation check records (meaningful when it is present). */
std::string expectedAnswer(const ExpectationCheck& e);

/** The answer a result gives, in the same form. */
std::string actualAnswer(const CheckResult& r);

/**
 * What differs between a result and its expectation, e.g. `expected Never flags=none states=2,
 * got Never flags=data-race states=2`; "" when the result matches or has no expectation line.
 */
std::string mismatchText(const CheckResult& r);

/**
 * With --readings: whether the verdict, or one flag, is the same under every reading
 * (robust) or which readings change it (reading-dependent).
 */
struct Dependence {
    std::string subject;      ///< "Verdict" or "Flag NAME"
    std::string underDefault; ///< "Sometimes", "raised", "not raised"
    /// The readings under which it is otherwise, each with its own value and decisions
    std::vector<std::pair<const ReadingResult*, std::string>> otherwise;
};

/** The verdict first, then every flag raised under some reading, in name order. */
std::vector<Dependence> dependencesOf(const CheckResult& r);

/** `Flag tmem-race reading-dependent: raised under the default reading; not raised under
 *  variants/q1-....cat (Q1 (<section> #<anchor>))`, or `... robust: ... under every reading`. */
std::string dependenceLine(const Dependence& d);

/** `variants/q1-....cat (Q1 (<section> #<anchor>))`: a reading and the decisions it takes. */
std::string readingText(const ReadingResult& v);

/**
 * What reading `v` changes in the flags raised under the default reading (`byDefault`, sorted):
 * `async-pending-at-exit raised; data-race, tmem-race not raised`, in dependenceLine's words;
 * "" when it raises the same flags.
 */
std::string flagChanges(const std::vector<std::string>& byDefault, const ReadingResult& v);

} // namespace ptxmc::report
