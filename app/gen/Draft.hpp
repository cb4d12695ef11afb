// A random litmus test under construction: threads, locations, registers, limits, rendering.
#pragma once

#include "gen/RandomLitmus.hpp"
#include "gen/Rng.hpp"
#include "ir/Event.hpp"

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::gen {

/** Where a location lives: the litmus test's and the program's own kinds of memory. */
using Space = ir::Space;

/** A declared location; an alias names its root and the proxy it is seen through. */
struct Loc {
    std::string name;
    Space space = Space::Global;
    std::vector<int> ctas; ///< CTAs holding an instance (shared, tmem, mbarrier)
    int rows = 1;
    std::vector<std::int64_t> init; ///< one value per row
    int count = 0;                  ///< mbarrier: expected arrival count
    bool programInit = false;       ///< mbarrier: declared uninitialised, mbarrier.init'ed
    int aliasOf = -1;               ///< alias: index of the root location
    std::string proxy;              ///< alias: generic, surface, texture or constant
    bool allocTarget = false;       ///< holds tcgen05.alloc addresses, kept out of the pool
};

/** One memory cell: root location, CTA instance (-1 for global memory), row. */
struct CellKey {
    int loc = -1;
    int cta = -1;
    int row = 0;
    auto operator<=>(const CellKey&) const = default;
};

struct Cell {
    int writes = 0;
    int reads = 0;
    std::vector<std::int64_t> values; ///< values it may hold, initial first
};

/** A final-state reference of the condition and the values it may plausibly take. */
struct Observable {
    std::string ref;             ///< "P1:r0" for registers; empty for a cell
    std::optional<CellKey> cell; ///< a location, or the cell a loaded register comes from
    std::vector<std::int64_t> values;
};

/** A proposition a pattern suggests for the condition (e.g. "flag seen, data stale"). */
struct Hint {
    Observable obs;
    std::int64_t value = 0;
};

struct ThreadDraft {
    int cta = 0;
    std::vector<std::string> code;
    std::map<std::string, std::vector<std::int64_t>> regs; ///< defined registers, their values
    std::map<std::string, CellKey> tokens;                 ///< phase-token registers
    bool relinquished = false; ///< alloc after relinquish_alloc_permit is illegal
    int openCopies = 0;        ///< bulk copies not yet in a committed group
    int groups = 0;            ///< committed bulk async-groups
};

class Draft {
public:
    static constexpr int kMaxWrites = 3; // per cell: keeps coherence enumeration cheap
    static constexpr int kMaxMbOps = 5;  // per mbarrier: keeps mbarrier orders cheap
    /** Bound on rf choices x coherence orders x mbarrier orders, what an explicit enumerator
     * walks through (ptxmc's takes about 0.15 ms per candidate: a few seconds at most). */
    static constexpr std::uint64_t kMaxCandidates = 20000;

    Draft(const GenOptions& options, Rng& rng);

    Rng& rng() const { return *rng_; }
    const GenOptions& opt() const { return opt_; }

    // threads and CTAs
    int threads() const { return static_cast<int>(threads_.size()); }
    ThreadDraft& th(int t) { return threads_[static_cast<std::size_t>(t)]; }
    int ctaOf(int t) const { return threads_[static_cast<std::size_t>(t)].cta; }
    std::vector<int> threadsIn(int cta) const;
    /** The other CTA of the cluster (the cta_group::2 peer), or -1. */
    int peer(int cta) const { return cluster_ && nCtas_ == 2 ? 1 - cta : -1; }
    /** A random thread, preferring threads without code so that none stays empty. */
    int pickThread();
    int pickThreadIn(int cta);

    // instructions and limits
    void emit(int t, std::string text) { th(t).code.push_back(std::move(text)); }
    int total() const;
    int emptyThreads() const;
    /** Every limit holds: instruction budget (one reserved per empty thread), writes, mb ops. */
    bool fits() const;

    // registers and values
    /** A register name unused in the whole test (readable conditions, no shadowing). */
    std::string freshReg(const char* prefix);
    void define(int t, const std::string& reg, std::vector<std::int64_t> values);
    /** A register initialised in the init block to `v`. */
    std::string initReg(int t, std::int64_t v, const char* prefix = "v");
    /** An immediate, a defined register or an initialised one; `values` gets what it holds. */
    std::string valueOperand(int t, std::vector<std::int64_t>& values, bool immediateOk);
    /** What a store writes: `fixed` as an immediate when given, else a valueOperand. */
    std::string storedValue(int t, std::optional<std::int64_t> fixed,
                            std::vector<std::int64_t>& values);
    std::int64_t freshConst() { return nextConst_++; }
    /** Offers a register to the condition. */
    void observe(int t, const std::string& reg, std::optional<CellKey> from);
    void hintCell(const CellKey& k, std::int64_t v) { hints.push_back({Observable{"", k, {}}, v}); }
    /** Suggests `t`'s register `reg` (offered by observe) to equal `v`. */
    void hintReg(int t, const std::string& reg, std::int64_t v);
    Observable regObs(int t, const std::string& reg, std::optional<CellKey> from) const;

    // locations
    Loc& loc(int i) { return locs_[static_cast<std::size_t>(i)]; }
    const Loc& loc(int i) const { return locs_[static_cast<std::size_t>(i)]; }
    int locCount() const { return static_cast<int>(locs_.size()); }
    /** A location of `space` with an instance in `cta` (added if missing), existing or new;
     * -1 when none fits. `forWrite`: row 0 of that instance is below the write limit. */
    int pickLoc(Space space, int cta, bool forWrite, int minRows = 1, bool mayCreate = true);
    int newLoc(Space space, int cta, int rows = 1);
    /** A surface/texture/constant/generic alias of global `root`. */
    int aliasOf(int root, const std::string& proxy);
    /** An mbarrier in `cta`; a new one the program inits gets its init in thread `t`. */
    int pickMbarrier(int t, int cta);
    /** The shared location tcgen05.alloc writes addresses to, with an instance in `cta`. */
    int allocSlot(int cta);
    void ensure(int l, int cta);
    CellKey key(int l, int cta, int row = 0) const;
    Cell& cell(const CellKey& k);
    void write(const CellKey& k, const std::vector<std::int64_t>& values);
    /** Counts a read of `k` (one rf choice per write) and returns the values it may see. */
    std::vector<std::int64_t> read(const CellKey& k);
    /** rf choices x coherence orders x mbarrier orders, saturated above kMaxCandidates. */
    std::uint64_t candidates() const;
    void mbOp(const CellKey& k) { ++mbOps_[k]; }
    /** Counts `k` choices of cells the draft does not track (a wgmma accumulator register). */
    void untrackedChoices(std::uint64_t k) { untracked_ *= k; }
    /** An arrive-on operation (mbarrier.arrive, tcgen05.commit) on `k`. */
    void mbArrive(const CellKey& k) { ++mbArrivals_[k], mbOp(k); }
    /** Whether a spinning wait on `k` may succeed: enough arrive-ons so far. Spinning only
     * then keeps most tests free of deadlocks, which would make their condition vacuous. */
    bool mayBlock(const CellKey& k) const;
    /** Operand text for `l`'s instance `instCta` seen from a thread of `fromCta`; declares
     * that instance if missing (a plain name must not resolve to another CTA's instance). */
    std::string addr(int l, int fromCta, int instCta, int row = 0, bool brackets = true);
    /** Condition reference text of a cell ("x", "a@1", "t@0[1]"). */
    std::string cellRef(const CellKey& k) const;
    std::vector<CellKey> dataCells() const;

    /** The test-wide tcgen05 .cta_group, chosen on first use (2 needs a 2-CTA cluster). */
    int ctaGroup();
    /** A bar.sync id for these participants of `cta`, and its thread-count suffix. */
    std::pair<int, std::string> barrierFor(int cta, const std::vector<int>& participants,
                                           bool noCount = false);

    std::vector<Hint> hints;
    std::vector<Observable> regObservables;
    std::set<int> allocCtas; ///< CTAs running a tcgen05.alloc: one each, whose address is 0

    std::string render(const std::string& name, const std::string& condition) const;

private:
    std::string summary() const;   ///< the description line
    std::string codeTable() const; ///< thread headers and rows

    GenOptions opt_;
    Rng* rng_;
    int nCtas_ = 1;
    bool cluster_ = false;
    int gpu1_ = 0; ///< GPU of CTA 1 when it is not in CTA 0's cluster
    std::vector<ThreadDraft> threads_;
    std::vector<Loc> locs_;
    std::map<CellKey, Cell> cells_;
    std::map<CellKey, int> mbOps_;
    std::uint64_t untracked_ = 1;
    std::map<CellKey, int> mbArrivals_;
    std::vector<std::tuple<int, std::string, std::int64_t>> regInits_;
    std::map<std::pair<int, std::vector<int>>, std::pair<int, std::string>> barriers_;
    int ctaGroup_ = 0;
    int nextReg_ = 0;
    std::int64_t nextConst_ = 1;
};

/** Adds the values not yet in `to` (bounded, so products of products stay few). */
void addValues(std::vector<std::int64_t>& to, const std::vector<std::int64_t>& from);

} // namespace ptxmc::gen
