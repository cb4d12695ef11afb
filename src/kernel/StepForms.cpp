// What a recorded step is, for the builder: its mbarrier operand, its kind of copy, its
// access width, and its opcode less the hints the checker does not read.
#include "kernel/StepForms.hpp"

#include "ptx/ModuleOps.hpp"
#include "ptx/Tables.hpp"
#include "ptx/ValueForm.hpp"

#include <algorithm>
#include <cctype>

namespace ptxmc::kernel {

using ptx::ModuleOp;

std::vector<std::size_t> addrOperands(const Step& s) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < s.operands.size(); ++i)
        if (s.operands[i].kind == RawOperand::Kind::Addr) out.push_back(i);
    return out;
}

/** Which operand of `s` is an mbarrier, if any. */
std::optional<std::size_t> mbarrierOperand(const Step& s) {
    auto a = addrOperands(s);
    if (a.empty()) return std::nullopt;
    if (ptx::isMbarrierOp(s.op) || s.op == ModuleOp::Tcgen05Commit ||
        s.op == ModuleOp::CpAsyncMbarrier)
        return a.front();
    if (ptx::hasQualifier(s.parts, "mbarrier::complete_tx")) return a.back();
    return std::nullopt;
}

bool isBulkCopy(const Step& s) {
    return s.op == ModuleOp::CpBulk || s.op == ModuleOp::CpBulkTensor;
}
bool isReduceBulk(const Step& s) {
    return s.op == ModuleOp::CpReduce || s.op == ModuleOp::CpReduceBulkTensor;
}
/** cp.async.bulk.tensor and cp.reduce.async.bulk.tensor: the global side is [tensorMap, {c...}]. */
bool isTensor(const Step& s) {
    return s.op == ModuleOp::CpBulkTensor || s.op == ModuleOp::CpReduceBulkTensor;
}
/** cp.async.{ca,cg} and cp.async.mbarrier.arrive: the non-bulk copies and their arrive. */
bool isNonBulkAsync(const Step& s) {
    return s.op == ModuleOp::CpAsync || s.op == ModuleOp::CpAsyncMbarrier;
}

/** The opcode without the hints the checker does not read. */
void stripHints(litmus::Instruction& in, std::vector<RawOperand>& ops, const Step& s) {
    bool cacheHint = ptx::hasQualifier(s.parts, "L2::cache_hint");
    std::vector<std::string> parts{s.parts[0]};
    for (std::size_t i = 1; i < s.parts.size(); ++i)
        if (!ptx::isAccessHint(s.op, s.parts[i])) parts.push_back(s.parts[i]);
    if (cacheHint && !ops.empty()) ops.pop_back(); // the cache-policy operand
    in.parts = parts;
    in.opcode.clear();
    for (std::size_t i = 0; i < parts.size(); ++i)
        in.opcode += (i ? "." : "") + parts[i];
}

/**
 * A generic load or store wider than one value (.b128, .v2/.v4/.v8) as one access of its
 * location: a location is one cell and the values are data (the litmus decoder has no
 * vector or 128-bit access). The data operand keeps its first element.
 */
bool narrowWide(litmus::Instruction& in) {
    bool wide = false;
    std::vector<std::string> parts;
    for (const std::string& q : in.parts) {
        if (ptx::isVectorQualifier(q)) {
            wide = true;
            continue;
        }
        auto type = ptx::scalarType(q);
        bool b128 = type && type->bits == 128;
        parts.push_back(b128 ? "b64" : q);
        wide = wide || b128;
    }
    if (!wide) return false;
    in.parts = parts;
    in.opcode.clear();
    for (std::size_t i = 0; i < in.parts.size(); ++i)
        in.opcode += (i ? "." : "") + in.parts[i];
    for (litmus::Operand& o : in.operands)
        if (o.kind == litmus::Operand::Kind::Vector && !o.elements.empty()) {
            litmus::Operand first = o.elements.front();
            o = first;
        }
    return true;
}

/**
 * A generic load or store of 8 or 16 bits as a 32-bit access of its location: a location of
 * the extracted program stands for a whole buffer, whose values are data, and a litmus store
 * narrower than its cell is refused (it would keep the cell's other bytes).
 */
bool widenSubWord(litmus::Instruction& in) {
    bool narrow = false;
    for (std::string& q : in.parts) {
        auto type = ptx::scalarType(q);
        if (!type || type->bits >= 32 || type->bits < 8) continue;
        q = "b32";
        narrow = true;
    }
    if (!narrow) return false;
    in.opcode.clear();
    for (std::size_t i = 0; i < in.parts.size(); ++i)
        in.opcode += (i ? "." : "") + in.parts[i];
    return true;
}

/** stmatrix .x1/.x2/.x4: lanes 0-7, 0-15 or all 32 give the row addresses ({Stmatrix}). */
std::size_t stmatrixAddressLanes(const Step& s) {
    if (ptx::hasQualifier(s.parts, "x1")) return 8;
    if (ptx::hasQualifier(s.parts, "x2")) return 16;
    return 32;
}
int accessBytes(const Step& s) {
    // stmatrix: each lane's address is the start of one 16-byte row of a matrix it stores
    if (s.op == ModuleOp::Stmatrix) return 16;
    return std::max(1, lastBits(s) / 8) * s.value.elements;
}
int lastBits(const Step& s) {
    // no memory type is 1 bit wide: .pred (like no type) reads as a 32-bit register
    const auto& t = s.value.type;
    return t && t->kind != ptx::ScalarType::Kind::Predicate ? t->bits : 32;
}

/**
 * tcgen05.xN -> .x1: the registers of one repetition stand for the fragment (data is not
 * followed); returns N. A shape's registers per thread grow linearly with .num,
 * so the first 1/N of the vector is what .x1 of the same shape moves (16x256b: 4; 9.7.18.8.3).
 */
std::size_t oneRepetition(litmus::Instruction& in) {
    std::size_t n = 1;
    for (auto& p : in.parts)
        if (auto repeat = ptx::ldStRepeatNamed(p)) {
            n = static_cast<std::size_t>(*repeat);
            p = "x1";
        }
    in.opcode.clear();
    for (std::size_t i = 0; i < in.parts.size(); ++i)
        in.opcode += (i ? "." : "") + in.parts[i];
    return std::max<std::size_t>(n, 1);
}

} // namespace ptxmc::kernel
