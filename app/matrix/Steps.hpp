// The instructions a generated test is made of, each with what it does when run on its own.
#pragma once

#include "ptx/Insn.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ptxmc::matrix {

/** The tcgen05.ld/st format of one 32-bit row per lane, .x1: one register per thread moves one row.
 */
inline constexpr ptx::LdStFormat kOneRow{ptx::LdStShape::Lanes32Bits32, 1, ptx::Pack::None};

/** Final-state values by condition reference ("t[1]", "u", "P1:r0"). */
using State = std::map<std::string, std::int64_t>;

/** The values an instruction writes (cells, registers), computed from the state it reads. */
using Effect = std::function<State(const State&)>;

/** One instruction; `effect` is what it does when it runs alone (a sync step: nothing). */
struct Step {
    std::size_t tid = 0;
    std::string text;
    Effect effect;
    std::vector<std::string> reads;  ///< tensor-memory cells it reads
    std::vector<std::string> writes; ///< tensor-memory cells it writes
};

/** A tcgen05.mma: accumulator t (row 0) or u, A from shared `a` or from a row of t. */
struct MmaSpec {
    enum class D { T, U };
    std::string kind;
    D d = D::T;
    int aRow = -1; ///< -1: A from shared memory `a`
    std::string idesc;
    bool accumulate = false;
};

/** Runs `step` on `state` atomically; a step without an effect changes nothing. */
void run(const Step& step, State& state);

inline constexpr const char* kWaitLd = "tcgen05.wait::ld.sync.aligned";
inline constexpr const char* kWaitSt = "tcgen05.wait::st.sync.aligned";
inline constexpr const char* kFb = "tcgen05.fence::before_thread_sync";
inline constexpr const char* kFa = "tcgen05.fence::after_thread_sync";
inline constexpr const char* kBar = "bar.sync 0";

/**
 * Builds the steps of one test over a tensor-memory location t (1 to 3 rows: 10, 20, 30), an
 * optional second one u (0), shared a = 2, b = 3, cp sources s0 = 4, s1 = 5, mbarrier mb,
 * global flag f; it records what the init block must declare and what the condition observes.
 */
class Gen {
public:
    explicit Gen(int rows);

    Step ld(std::size_t tid, int row);
    Step st(std::size_t tid, int row, std::int64_t value);
    Step cp(std::size_t tid, ptx::CpShape shape, int row, int source);
    Step shift(std::size_t tid);
    Step mma(std::size_t tid, const MmaSpec& spec);

    std::string commit();
    std::string tryWait();
    std::string arrive();
    std::string flagStore();
    /** A relaxed load of the flag into a fresh register; `ref` receives "P<tid>:r<n>". */
    std::string flagLoad(std::size_t tid, std::string& ref);

    /** Row of a reference to t ("t" is row 0). */
    int rowOf(const std::string& ref) const;
    /** Initial values of every observed reference. */
    const State& initial() const { return initial_; }
    /** References the condition compares: written cells and loaded registers, first use first. */
    const std::vector<std::string>& observed() const { return observed_; }
    /** Init-block entries for everything the steps use. */
    std::vector<std::string> init() const;

private:
    std::string cell(int row) const;
    std::string reg(std::size_t tid);
    void observe(const std::string& ref);

    int rows_;
    bool u_ = false, a_ = false, b_ = false, mb_ = false, flag_ = false;
    bool source_[2] = {false, false};
    std::map<std::size_t, int> nextReg_;
    std::vector<std::string> regInits_;
    State initial_;
    std::vector<std::string> observed_;
};

} // namespace ptxmc::matrix
