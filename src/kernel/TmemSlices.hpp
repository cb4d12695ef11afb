// Tensor memory as the kernel's locations: accumulators, and the lane quarters and column ranges
// of an accumulator that tcgen05.st writes in parts.
#pragma once

#include "litmus/Ast.hpp"
#include "support/SourceLoc.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::kernel {

/**
 * The tensor memory of a CTA is named by the accumulators mma instructions write: one location
 * per distinct column base of an mma's D, and an access of a column belongs to the accumulator
 * whose base is the nearest below it. An accumulator that tcgen05.st or tcgen05.cp writes (S, P
 * and row statistics of an attention kernel in one accumulator's columns) is cut into slices, a
 * location per lane quarter and column range between the columns where such writes start or
 * end, so that disjoint parts never conflict and overlapping ones always do. An accumulator only
 * mma instructions write stays one location (its readers only read).
 */
class TmemSlices {
public:
    static constexpr std::uint64_t kEnd = std::numeric_limits<std::uint64_t>::max();
    static constexpr int kAllQuarters = -1;

    /** Lanes (a quarter 0-3: lanes 32q..32q+31, or all) and columns [lo, hi). */
    struct Span {
        std::uint64_t lo = 0, hi = kEnd;
        int quarter = kAllQuarters;
    };

    /** Pass 1: an mma's D starts an accumulator at column `col`. */
    void addAccumulator(std::uint64_t col) { bases_.insert(col); }
    /** Pass 2 (every accumulator known): a write other than an mma's covers `span`. */
    void addWrite(const Span& span);
    /** Pass 2: an mma's D ends before column `end` (a cut where the accumulator is sliced). */
    void addBound(std::uint64_t end);

    /** The accumulator's base column of `col`. */
    std::uint64_t accumulatorOf(std::uint64_t col) const;
    /** The locations `span` covers: the accumulator's name, or the names of its slices. */
    std::vector<std::string> names(const Span& span) const;
    /** Whether `name` is a slice of one lane quarter; its quarter, else kAllQuarters. */
    static int quarterOf(const std::string& name);
    /** The same slice in lane quarter `q`. */
    static std::string inQuarter(const std::string& name, int q);

private:
    std::set<std::uint64_t> bases_;
    std::map<std::uint64_t, std::set<std::uint64_t>> cuts_;   ///< sliced accumulator -> columns
    std::map<std::uint64_t, std::set<std::uint64_t>> bounds_; ///< accumulator -> its mmas' D ends
};

/** Columns a tcgen05.ld/st of this shape and .num covers (`parts`: the opcode's qualifiers). */
std::uint64_t tmemColumns(const std::vector<std::string>& parts);

/** N of an mma's instruction descriptor (bits 17-22 hold N >> 3), 0 where it is not known. */
std::uint64_t mmaColumns(std::uint64_t idesc);

/** A tensor-memory operand of the built program: one location, or the list of its slices. */
litmus::Operand tmemOperand(const std::vector<std::string>& names, const SourceLoc& loc);
/** The locations a tensor-memory operand names. */
std::vector<std::string> tmemOperandNames(const litmus::Operand& o);
/** Whether every location `o` names is a slice of lane quarter `q` (a warp's own, w % 4). */
bool ownsQuarter(const litmus::Operand& o, int q);
/**
 * The operand naming the same slices in each lane quarter of `quarters`; with `self`, in the
 * quarter of the warp that runs it instead (the quarter's suffix replaced by `self`).
 */
litmus::Operand inQuarters(const litmus::Operand& o, const std::set<int>& quarters,
                           const std::string& self = "");

} // namespace ptxmc::kernel
