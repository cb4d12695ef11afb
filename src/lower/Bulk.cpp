// Asynchronous copies (cp{.reduce}.async.bulk{.tensor}, non-bulk cp.async), their async-group
// completion instructions, and clusterlaunchcontrol's try_cancel, whose response arrives as one.
#include "lower/CopyReport.hpp"
#include "lower/Floats.hpp"
#include "lower/Instructions.hpp"
#include "ptx/Sections.hpp"

#include <algorithm>
#include <map>

namespace ptxmc::lower {

using ir::Tag;
using ir::Value;

namespace {

/** Marks `e` as a weak async-proxy access (the copy itself is weak, PTX ISA {AsyncCopies}). */
void asyncAccess(Lowerer& l, ir::Event& e, const Address& a) {
    l.access(e, a, ir::Proxy::Async);
    setWeak(e);
}

/**
 * The global side of a tensor copy, `[tensorMap, {c0, ...}]`: the tile it names stands for
 * the bytes it moves (the location's `, bytes N`); coordinates only need the right count.
 */
std::int64_t tileBytes(Lowerer& l, const ptx::BulkCopy& copy, const litmus::Operand& op,
                       const Address& a) {
    // "{col_idx, row_idx0, row_idx1, row_idx2, row_idx3}" in .tile::gather4/scatter4 mode, else
    // "{d0, .., dn} for n = .dim" ({CpAsyncBulkTensor})
    const std::size_t coords =
        copy.loadMode.rfind("tile::", 0) == 0 ? 5 : static_cast<std::size_t>(copy.dims);
    if (op.kind != litmus::Operand::Kind::Memory || op.elements.size() != coords)
        l.fail(op.loc, "a ." + std::to_string(copy.dims) + "d tensor copy" +
                           (copy.loadMode.empty() ? "" : " in ." + copy.loadMode + " mode") +
                           " names its tile as [" + op.name + ", {" + std::to_string(coords) +
                           " coordinate(s)}]");
    if (!a.decl->bytes)
        l.fail(op.loc, "'" + op.name +
                           "' needs its tile size for a tensor copy: declare it "
                           "with ', bytes N' (" +
                           ptx::cite(ptx::Sec::TensorCopies) + ")");
    return *a.decl->bytes;
}

/**
 * The tensor map a tensor copy reads first, when the tile's declaration names one (`, tensormap
 * M`): "The tensorMap is accessed in tensormap proxy" (PTX ISA
 * #data-movement-and-conversion-instructions-cp-async-bulk-tensor).
 */
std::optional<Address> tensormapOf(Lowerer& l, const Address& tile) {
    if (!tile.decl || !tile.decl->tensormap) return std::nullopt;
    litmus::Operand op;
    op.kind = litmus::Operand::Kind::Name;
    op.name = *tile.decl->tensormap;
    op.loc = tile.decl->tensormapLoc;
    Address m = l.address(op, ir::Space::Global);
    return m;
}

/**
 * Each element of cp.reduce.async.bulk's destination is read and written back reduced: "The
 * optional .sem.scope qualifier specifies the memory ordering semantics of each individual
 * element-wise reduction in dstMem ... These are element-wise atomic at the specified scope ...
 * When .sem.scope is not specified, it defaults to .relaxed.sys" and "The memory operations are
 * performed in the async proxy" (PTX ISA 9.4 {CpReduceAsyncBulk}): a relaxed read-modify-write
 * at that scope in the async proxy. (The 9.1 text said "individually .relaxed.gpu".)
 */
void reduceInto(Lowerer& l, int issueId, const Address& d, ptx::AtomOp op,
                const ElementKind& elements, int sourceRead, ir::Scope scope, int cellBytes) {
    const std::string name = l.program().locations[static_cast<std::size_t>(d.location)].name;
    // the written .relaxed.scope, else .relaxed.sys (9.4's default; the 9.1 text had .gpu)
    auto relaxedAtScope = [&](ir::Event& e) {
        l.access(e, d, ir::Proxy::Async);
        setOrdering(e, ir::Sem::Relaxed, scope);
    };
    // .u64 and .s64 elements ({CpReduceAsyncBulk#}): the cell holds the chunk's first 8 bytes,
    // one 64-bit element
    const int bytes = elements.wide ? 8 : 4;
    ir::Event& r = l.exec(issueId, "read " + name, {Tag::R, Tag::RMW, Tag::RED});
    relaxedAtScope(r);
    l.noteWidth(r, l.operand(0), bytes);
    int readId = r.id;
    ir::Event& w = l.exec(issueId, "write " + name, {Tag::W, Tag::RMW, Tag::RED});
    relaxedAtScope(w);
    l.noteWidth(w, l.operand(0), bytes);
    // "The .inc and .dec operations return a result in the range [0..x] where x is the value at
    // the source state space" ({CpReduceAsyncBulk#}): atom's inc and dec with the source element
    // as bound; .min/.max compare as the element type says. On floats (.f32, .f16, .bf16) "The
    // floating point operation .add rounds to the nearest even" and keeps subnormals (.noftz,
    // .f32's default). The cell holds the chunk's first 4 bytes: one .f32 element, or two .f16 or
    // .bf16 elements, its low half first, each reduced with the source's (or its first 8: one
    // 64-bit element)
    const ir::ValuePtr dst = Value::readOf(readId), src = Value::readOf(sourceRead);
    // (a 2-byte element of an array of them holds one .f16 or .bf16 element)
    const bool halves = elements.format && elements.format->mask() == 0xffff && cellBytes != 2;
    w.written = halves ? reducedPairOfHalves(op, elements, dst, src)
                       : reducedElement(op, elements, dst, src);
}

/**
 * Whether a tensor reduction's elements are unsigned: the element type is the tensor map's ("The
 * type of each tensor data element in the source and the destination tensor is specified in
 * Tensor-map", {CpReduceAsyncBulkTensor#}), declared on the tile (`, elem u32|s32`), and must be
 * one the table of valid combinations gives the .redOp: .add, .min, .max on .u32/.s32; .inc, .dec
 * on .u32; .and, .or, .xor on .b32 (either 32-bit integer type).
 */
bool tensorReduceUnsigned(Lowerer& l, const ptx::BulkCopy& copy, const litmus::Operand& op,
                          const Address& tile) {
    const std::string& elem = tile.decl->elem;
    if (elem.empty())
        l.fail(op.loc, "'" + op.name +
                           "' needs its element type for a tensor reduction, which the tensor "
                           "map gives: declare it with ', elem u32' or ', elem s32' (" +
                           ptx::cite(ptx::Sec::CpReduceAsyncBulkTensor) + ")");
    bool incDec = *copy.reduce == ptx::AtomOp::Inc || *copy.reduce == ptx::AtomOp::Dec;
    if (incDec && elem != "u32")
        l.fail(op.loc, "a tensor reduction's .inc/.dec reduce .u32 elements, and '" + op.name +
                           "' has " + elem + " (" + ptx::cite(ptx::Sec::CpReduceAsyncBulkTensor) +
                           ")");
    return elem == "u32";
}

/**
 * The im2colInfo operand of a tensor load in .im2col mode ("A vector of im2col offsets whose
 * vector size is two less than number of dimensions .dim") or .im2col::w / .im2col::w::128 ("A
 * vector of 2 arguments containing wHalo and wOffset"), {CpAsyncBulkTensor#}. It places the
 * bytes the mode gathers in the tensor; the tile location stands for them whatever it says.
 */
void checkIm2colInfo(Lowerer& l, const ptx::BulkCopy& copy, const litmus::Operand& op) {
    const std::size_t n = copy.loadMode == "im2col" ? static_cast<std::size_t>(copy.dims - 2) : 2;
    if (op.kind != litmus::Operand::Kind::Vector || op.elements.size() != n)
        l.fail(op.loc, "." + copy.loadMode + " takes its im2colInfo as a vector of " +
                           std::to_string(n) + " value(s) after the mbarrier (" +
                           ptx::cite(ptx::Sec::CpAsyncBulkTensor) + ")");
}

/** Whether a tensor copy's mode takes the im2colInfo operand (the loads' im2col modes). */
bool takesIm2colInfo(const ptx::BulkCopy& copy) {
    return copy.loadMode == "im2col" || copy.loadMode == "im2col::w" ||
           copy.loadMode == "im2col::w::128";
}

} // namespace

namespace {

/**
 * The bytes each cell of a non-tensor bulk copy of `size` bytes stands for: the elements of
 * dst's and src's arrays where they are narrower than the copy (the copy reads and writes each),
 * else the whole copy, one cell (a 16-byte tile, or a location that is no array).
 */
int copyElementBytes(Lowerer& l, const Address& dst, const Address& src, std::int64_t size) {
    const int ds = l.elementStride(dst), ss = l.elementStride(src);
    const bool narrowDst = ds > 0 && ds<size, narrowSrc = ss> 0 && ss < size;
    if (!narrowDst && !narrowSrc) return static_cast<int>(size);
    if (ds != ss || size % ds != 0)
        l.fail(l.operand(2).loc,
               "a bulk copy of " + std::to_string(size) + " bytes reaches each element of '" +
                   (narrowDst ? l.operand(0).name : l.operand(1).name) +
                   "', an array of elements narrower than the copy: declare '" + l.operand(0).name +
                   "' and '" + l.operand(1).name +
                   "' as arrays of the same stride, which divides the size (litmus/README.md, "
                   "Arrays)");
    return ds;
}

/** A reduction's element type fits cells of `cellBytes`: its size, 4 for pairs of 16-bit
 *  floats, or a whole 16-byte chunk (which the cell's first element stands for). */
void checkReduceElement(Lowerer& l, const ElementKind& elements, int cellBytes) {
    const bool half = elements.format && elements.format->mask() == 0xffff;
    const int bytes = half ? 2 : elements.wide ? 8 : 4;
    if (cellBytes == bytes || cellBytes >= 16 || (half && cellBytes == 4)) return;
    l.fail(l.operand(2).loc, "a bulk reduction of " + std::to_string(bytes) +
                                 "-byte elements into an array of " + std::to_string(cellBytes) +
                                 "-byte elements: declare arrays of stride " +
                                 std::to_string(bytes) + " (litmus/README.md, Arrays)");
}

/** .cp_mask's byteMask operand: a 16-bit constant. */
std::int64_t maskValue(Lowerer& l, const litmus::Operand& op) {
    const ir::ValuePtr v = l.value(op);
    if (!v->isConst() || v->constant < 0 || v->constant > 0xffff)
        l.fail(op.loc, "byteMask must be a 16-bit constant ptxmc knows when it lowers the copy (" +
                           ptx::cite(ptx::Sec::CpAsyncBulk) + ")");
    return v->constant;
}

/**
 * Whether .cp_mask copies element `k` of `bytes` bytes: "The i-th bit in the 16-bit wide
 * byteMask operand specifies whether the i-th byte of each 16-byte wide chunk of source data is
 * copied. If the bit is set, the byte is copied" ({CpAsyncBulk#}).
 * A cell is written whole, so a mask that copies part of one is an error.
 */
bool copiesElement(Lowerer& l, std::int64_t mask, std::size_t k, int bytes) {
    const int offset = bytes >= 16 ? 0 : static_cast<int>((k * bytes) % 16);
    const std::int64_t all = bytes >= 16 ? 0xffff : ((std::int64_t{1} << bytes) - 1);
    const std::int64_t bits = (mask >> offset) & all;
    if (bits == all) return true;
    if (bits == 0) return false;
    l.fail(l.operand(l.inst().operands.size() - 1).loc,
           "byteMask copies some bytes of a " + std::to_string(bytes) +
               "-byte cell and not others, and ptxmc writes whole cells: declare '" +
               l.operand(0).name + "' and '" + l.operand(1).name +
               "' as arrays of a stride the mask selects whole (stride 1 takes every mask)");
}

/**
 * The mbarrier a .cta_group::2 multicast signals for destination CTA `dstCta`: "for each
 * destination CTA specified in the ctaMask, the mbarrier signal is sent either to the
 * destination CTA or its peer-CTA based on the %cluster_ctarank parity of the shared memory
 * where the mbarrier object mbar resides" ({CpAsyncBulkTensor}): the CTA of dstCta's pair whose
 * rank has mbar's parity. CUTLASS's 2-SM loads name the leader's barrier, so the odd CTAs'
 * halves complete on their leaders'.
 */
Address pairMbarrier(Lowerer& l, const Address& mbar, int dstCta, const litmus::Operand& op) {
    const int rank = (l.clusterRank(dstCta) & ~1) | (l.clusterRank(mbar.cta) & 1);
    const int cta = l.ctaOfRank(dstCta, rank);
    std::optional<Address> moved = cta < 0 ? std::nullopt : l.addressInCta(mbar, cta);
    if (!moved)
        l.fail(op.loc,
               "ctaMask names a CTA whose pair has no CTA of rank " + std::to_string(rank) +
                   " declaring '" + op.name +
                   "' (.cta_group::2 signals the barrier at the rank parity of mbar's CTA)");
    return *moved;
}

} // namespace

void lowerCopy(Lowerer& l, const ptx::BulkCopy& copy) {
    bool toShared = copy.dst != ptx::StateSpace::Global;
    bool fromShared = copy.src != ptx::StateSpace::Global;
    bool viaMbarrier = copy.viaMbarrier;
    bool viaGroup = !copy.viaMbarrier;
    bool multicast = copy.multicast;
    bool tensor = copy.dims > 0;
    // cp.async.bulk [dst], [src], size{, [mb]}{, mask}{, policy}; the tensor form has no size
    // operand, and an im2col load an im2colInfo vector after [mb]. The cache policy is a hint
    // only: read as an operand, nothing else. .ignore_oob: ignoreBytesLeft, ignoreBytesRight
    // after size, each 0 here.
    const bool im2colInfo = tensor && takesIm2colInfo(copy);
    const std::size_t oob = copy.ignoreOob ? 2 : 0;
    std::size_t n = (tensor ? 2 : 3) + oob + (viaMbarrier ? 1 : 0) + (im2colInfo ? 1 : 0) +
                    (multicast ? 1 : 0) + (copy.cacheHint ? 1 : 0) + (copy.cpMask ? 1 : 0);
    l.expectOperands(n);
    std::int64_t ignoredLeft = 0, ignoredRight = 0; // .ignore_oob's operands
    for (std::size_t i = 3; i < 3 + oob; ++i) {
        const ir::ValuePtr v = l.value(l.operand(i));
        if (!v->isConst() || v->constant < 0 || v->constant > 15)
            l.fail(l.operand(i).loc, "ignoreBytesLeft and ignoreBytesRight are constants in "
                                     "[0..15] ptxmc knows when it lowers the copy (" +
                                         ptx::cite(ptx::Sec::CpAsyncBulk) + ")");
        (i == 3 ? ignoredLeft : ignoredRight) = v->constant;
    }
    // multimem.cp{.reduce}.async.bulk: "to memory locations residing on each GPU's memory
    // referred to by the destination multimem address range" ({MultimemCpAsyncBulk#},
    // {MultimemCpReduceAsyncBulk#}): a write (reduction) per location, each completed by the
    // bulk async-group, through the multimem address
    std::vector<Address> members;
    if (copy.multimem) members = l.multimemAddresses(l.operand(0));
    Address dst = copy.multimem
                      ? members[0]
                      : l.address(l.operand(0), toShared ? ir::Space::Shared : ir::Space::Global);
    Address src = l.address(l.operand(1), fromShared ? ir::Space::Shared : ir::Space::Global);
    std::int64_t size = 0;
    if (tensor) {
        size = toShared ? tileBytes(l, copy, l.operand(1), src)
                        : tileBytes(l, copy, l.operand(0), dst);
    } else {
        const auto& sizeOp = l.operand(2);
        if (sizeOp.kind != litmus::Operand::Kind::Integer || sizeOp.value <= 0 ||
            sizeOp.value % 16 != 0 || sizeOp.value >= (1 << 20))
            l.fail(sizeOp.loc, "copy size must be a positive multiple of 16 below 2^20");
        size = sizeOp.value;
    }
    const std::size_t mbIndex = (tensor ? 2 : 3) + oob;
    if (im2colInfo) checkIm2colInfo(l, copy, l.operand(mbIndex + 1));
    const std::size_t maskIndex = mbIndex + (im2colInfo ? 2 : 1);
    std::vector<std::pair<Address, std::optional<Address>>> targets; // (dst, mbarrier) per CTA
    std::optional<Address> mbar;
    if (viaMbarrier) {
        mbar = l.address(l.operand(mbIndex), ir::Space::Mbarrier);
        // The mbarrier sits with the destination; .cta_group::2 lets it be the peer CTA's
        // (PTX ISA {TensorCopies}: the CTA pair's leader collects both halves).
        bool peer = copy.ctaGroup == 2 && mbar->cta == l.peerCta(dst.cta);
        if (!multicast && mbar->cta != dst.cta && !peer)
            l.fail(l.operand(mbIndex).loc,
                   copy.ctaGroup == 2 ? "the mbarrier must be in the destination's CTA or its peer"
                                      : "the mbarrier must be in the destination's CTA (or use "
                                        ".cta_group::2 to signal the peer CTA's)");
    }
    if (multicast && copy.ctaGroup == 2) {
        for (const auto& t : l.multicastTargets(
                 l.operand(maskIndex), copy.multicastBits == 32 ? 32 : 16, {{dst, &l.operand(0)}}))
            targets.emplace_back(t[0], pairMbarrier(l, *mbar, t[0].cta, l.operand(mbIndex)));
    } else if (multicast) {
        // "each bit position in the 16-bit or otherwise 32-bit ctaMask operand corresponds to the
        // %cluster_ctarank of the destination CTA" ({CpAsyncBulk}; ::32b is 9.4's)
        for (const auto& t :
             l.multicastTargets(l.operand(maskIndex), copy.multicastBits == 32 ? 32 : 16,
                                {{dst, &l.operand(0)}, {*mbar, &l.operand(mbIndex)}}))
            targets.emplace_back(t[0], t[1]);
    } else if (copy.multimem) {
        for (const Address& m : members)
            targets.emplace_back(m, std::nullopt);
    } else {
        targets.emplace_back(dst, mbar);
    }
    std::optional<Address> tensormap;
    if (tensor) tensormap = tensormapOf(l, toShared ? src : dst);
    ir::Event& issue = l.issue({Tag::BULK, viaMbarrier ? Tag::BULK_MBAR : Tag::BULK_GROUP});
    int issueId = issue.id;
    if (tensormap) {
        ir::Event& t =
            l.exec(issueId, "read tensormap " + *(toShared ? src : dst).decl->tensormap, {Tag::R});
        l.access(t, *tensormap, ir::Proxy::Tensormap);
        setWeak(t);
    }
    // .relaxed.scope (9.3): the copy's accesses are strong, relaxed at that scope; a reduction's
    // source reads stay weak ("Source location accesses are .weak").
    bool strongCopy = copy.sem == ptx::Sem::Relaxed && !copy.reduce;
    auto copyAccess = [&](ir::Event& e, const Address& a) {
        asyncAccess(l, e, a);
        if (strongCopy) {
            e.tags.erase(Tag::Weak);
            setOrdering(e, ir::Sem::Relaxed, copy.scope);
        }
    };
    // A tensor reduction: "Each reduction operation performed by cp.reduce.async.bulk.tensor has
    // individually .relaxed.gpu memory ordering semantics and are element-wise atomic"
    // ({CpReduceAsyncBulkTensor#}); cp.reduce.async.bulk's .sem.scope "defaults to .relaxed.sys"
    // ({CpReduceAsyncBulk#})
    ir::Scope reduceScope = tensor                           ? ir::Scope::Gpu
                            : copy.scope == ptx::Scope::None ? ir::Scope::Sys
                                                             : copy.scope;
    ElementKind elements;
    // .add.f32 keeps subnormals: "The default behavior for [multimem.]cp.reduce.async.bulk.add.f32
    // is equivalent to specifying optional .noftz qualifier" ({CpReduceAsyncBulk#},
    // {MultimemCpReduceAsyncBulk#})
    if (copy.reduce)
        elements = tensor ? ElementKind{tensorReduceUnsigned(l, copy, l.operand(0), dst)}
                          : elementKind(copy.half, copy.types, false);
    // the cells the copy reads and writes: one standing for the whole copy, or each element of
    // arrays narrower than it (copyElementBytes); .cp_mask picks the elements it copies
    const int e = tensor ? static_cast<int>(size) : copyElementBytes(l, dst, src, size);
    const std::size_t count = static_cast<std::size_t>(size / e);
    if (copy.reduce && !tensor) checkReduceElement(l, elements, e);
    // "When .sem is .relaxed, the data copy accesses memory with naturally-aligned strong memory
    // operations with element-wise atomic size specified by .type" (.b128, {CpAsyncBulk#}): cells
    // narrower than 16 bytes would let two such copies tear an element
    if (strongCopy && e < 16)
        l.fail(l.operand(2).loc, "a .relaxed copy is atomic in 16-byte elements (.b128), and the "
                                 "arrays' " +
                                     std::to_string(e) +
                                     "-byte cells would split them: declare arrays of stride 16, "
                                     "or copy .weak (" +
                                     ptx::cite(ptx::Sec::CpAsyncBulk) + ")");
    const std::int64_t byteMask = copy.cpMask ? maskValue(l, l.operand(n - 1)) : 0xffff;
    std::vector<std::vector<Address>> into(targets.size()); // into[target][element]
    for (std::size_t k = 0; k < count; ++k) {
        const std::vector<Address> memberElements =
            copy.multimem && k > 0 ? l.multimemAddresses(l.operand(0), static_cast<int>(k), e)
                                   : std::vector<Address>{};
        for (std::size_t t = 0; t < targets.size(); ++t)
            into[t].push_back(k == 0          ? targets[t].first
                              : copy.multimem ? memberElements[t]
                                              : l.elementAfter(targets[t].first, l.operand(0),
                                                               static_cast<int>(k), e));
    }
    // .ignore_oob: "the value of the corresponding bytes in destination shared memory [dstMem ..
    // dstMem+size) is indeterminate" for the first ignoredLeft and the last ignoredRight bytes;
    // their source bytes "may be out-of-bounds". A cell with such bytes is written with a value
    // nothing may read (checkIndeterminateUnread), its source read only where some of its bytes
    // are in bounds.
    auto ignoredBytes = [&](std::size_t k) {
        const std::int64_t from = static_cast<std::int64_t>(k) * e, to = from + e;
        return std::max<std::int64_t>(0, std::min(to, ignoredLeft) - from) +
               std::max<std::int64_t>(0, to - std::max(from, size - ignoredRight));
    };
    std::vector<int> reads(count, -1); // the source read of each element copied
    std::vector<bool> unknown(count, false), written(count, true);
    for (std::size_t k = 0; k < count; ++k) {
        if (copy.cpMask && !copiesElement(l, byteMask, k, e)) {
            written[k] = false;
            continue;
        }
        const std::int64_t ignored = ignoredBytes(k);
        unknown[k] = ignored > 0;
        if (ignored >= e) continue; // no byte of it is read
        const Address from =
            k == 0 ? src : l.elementAfter(src, l.operand(1), static_cast<int>(k), e);
        ir::Event& r = l.exec(issueId, "read " + Lowerer::accessName(l.operand(1), from), {Tag::R});
        copyAccess(r, from);
        if (copy.reduce && elements.wide) l.noteWidth(r, l.operand(1), 8);
        reads[k] = r.id;
    }
    std::vector<Address> reportedOn;
    for (const auto& target : targets)
        if (target.second) reportedOn.push_back(*target.second);
    if (tensor && copy.report != ptx::ReportMechanism::Disabled)
        l.fail(l.operand(1).loc, "a tensor copy's tile is one cell, whose elements ptxmc does not "
                                 "hold: its .report_mechanism cannot inspect them (" +
                                     ptx::cite(ptx::Sec::AsyncCopyReportMechanisms) + ")");
    const ir::ValuePtr report = copyReport(l, copy.report, reads, e, size, reportedOn);
    for (std::size_t t = 0; t < targets.size(); ++t) {
        for (std::size_t k = 0; k < count; ++k) {
            if (!written[k]) continue;
            const Address& d = into[t][k];
            if (copy.reduce) {
                reduceInto(l, issueId, d, *copy.reduce, elements, reads[k], reduceScope, e);
                continue;
            }
            ir::Event& w =
                l.exec(issueId,
                       "write " + l.program().locations[static_cast<std::size_t>(d.location)].name,
                       {Tag::W});
            copyAccess(w, d);
            w.written = reads[k] >= 0 ? Value::readOf(reads[k]) : Value::makeConst(0);
            if (unknown[k]) l.noteIndeterminate(w, l.inst().loc);
        }
        if (const auto& m = targets[t].second) {
            completeTxAtCluster(l, issueId, *m, size, true).mbReport = report;
        } else {
            // Completion of a bulk-group copy, observed by wait_group: the implicit
            // generic-async proxy fence follows it (PTX ISA #async-proxy).
            l.exec(issueId, "complete", {Tag::BULK_DONE, Tag::PF, Tag::PF_ASYNC});
        }
    }
    if (copy.multimem) { // one element's accesses of its several locations, for decision Q25
        std::map<int, std::size_t> elementAt;
        for (const auto& cells : into)
            for (std::size_t k = 0; k < cells.size(); ++k)
                elementAt[cells[k].location] = k;
        std::vector<int> groupOf(count, -1);
        for (ir::Event& ev : l.program().events) {
            if (ev.issue != issueId || ev.location < 0) continue;
            const auto k = elementAt.find(ev.location);
            if (k == elementAt.end()) continue; // a source read
            int& group = groupOf[k->second];
            if (group < 0) group = ev.id;
            ev.multimemGroup = group;
        }
    }
    if (viaGroup) l.pendingBulk.push_back(issueId);
}

/**
 * cp.async.bulk.prefetch{.tensor} ({CpAsyncBulkPrefetch#}, {CpAsyncBulkPrefetchTensor#}): "a hint
 * to the system to initiate the asynchronous prefetch of data to the cache", "treated as a weak
 * memory operation". A prefetch into L2 changes no value a thread reads, and no completion
 * mechanism tracks it (it names no mbarrier and no .bulk_group), so it orders nothing. The tensor
 * form reads its map: "The tensorMap is accessed in tensormap proxy", a weak read performed
 * asynchronously (after the thread's earlier instructions, like a tensor copy's), when the tile's
 * declaration names its map (`, tensormap M`). Operands: `[src], size{, policy}`, or
 * `[tensorMap, {coords}]{, im2colInfo}{, policy}`. With .override::global_address (9.4) the
 * tile operand is `[tensorMap, g, {coords}]`: "the global memory address present in the opaque
 * tensorMap object is ignored and instead the address specified by the explicit 64-bit operand
 * gAddrToOverride is used" ({TensorBaseAddressOverride#}); g names a global location, and the
 * map is still read for the tensor's other properties. A prefetch accesses neither.
 */
void lowerPrefetch(Lowerer& l, const ptx::BulkPrefetch& p) {
    const std::size_t fixed = p.dims > 0 ? 1 : 2;
    const std::size_t extra =
        (p.cacheHint ? 1 : 0) + (p.dims > 0 && p.loadMode.rfind("im2col", 0) == 0 ? 1 : 0);
    l.expectOperands(fixed + extra);
    if (p.dims == 0) {
        l.address(l.operand(0), ir::Space::Global);
        const auto& size = l.operand(1);
        if (size.kind != litmus::Operand::Kind::Integer || size.value <= 0 || size.value % 16 != 0)
            l.fail(size.loc, "prefetch size must be a positive multiple of 16 (" +
                                 ptx::cite(ptx::Sec::CpAsyncBulkPrefetch) + ")");
        l.issue({}); // the hint, in program order; it performs no access
        return;
    }
    const auto& tileOp = l.operand(0);
    std::size_t coords = p.loadMode == "tile::gather4" ? 5 : static_cast<std::size_t>(p.dims);
    if (tileOp.kind != litmus::Operand::Kind::Memory || tileOp.elements.size() != coords)
        l.fail(tileOp.loc, "cp.async.bulk.prefetch.tensor names its tile as [" + tileOp.name +
                               ", {" + std::to_string(coords) + " coordinate(s)}]");
    Address tile = l.address(tileOp, ir::Space::Global);
    if (p.overrideAddress) {
        const litmus::Operand& g = tileOp.overrideAddress.at(0);
        Address over = l.address(g, ir::Space::Global);
        if (l.program().locations[static_cast<std::size_t>(over.location)].space !=
            ir::Space::Global)
            l.fail(g.loc, "the overriding address '" + g.name + "' must be in global memory (" +
                              ptx::cite(ptx::Sec::TensorBaseAddressOverride) + ")");
    }
    std::optional<Address> map = tensormapOf(l, tile);
    // a bulk asynchronous operation (BULK), though tracked by no completion mechanism: its map
    // read follows causally what precedes the issue, a tensormap acquire fence among them
    int issueId = l.issue({Tag::BULK}).id;
    if (map) {
        ir::Event& t = l.exec(issueId, "read tensormap " + *tile.decl->tensormap, {Tag::R});
        l.access(t, *map, ir::Proxy::Tensormap);
        setWeak(t);
    }
}

namespace {

/** The first `bytes` bytes of a little-endian cell of `width` bytes (4 or 8). */
ir::ValuePtr lowBytes(ir::ValuePtr v, std::int64_t bytes, int width) {
    if (width == 8) {
        const auto mask = static_cast<std::int64_t>((std::uint64_t{1} << (8 * bytes)) - 1);
        return Value::make(Value::Op::And64, {std::move(v), Value::makeConst64(mask)});
    }
    const std::int64_t mask = (std::int64_t{1} << (8 * bytes)) - 1;
    return Value::make(Value::Op::And, {std::move(v), Value::makeConst(mask)});
}

/** cp.async's ignore-src operand, where written: a predicate (null: none). */
ir::ValuePtr ignoreSrcOf(Lowerer& l, const ptx::CpAsync& c) {
    if (!c.ignoreSrc) return nullptr;
    ir::ValuePtr ignore = l.value(l.operand(3));
    if (ignore->isConst() && ignore->constant != 0 && ignore->constant != 1)
        l.fail(l.operand(3).loc,
               "ignore-src is a predicate, here " + std::to_string(ignore->constant) +
                   " (write src-size as an immediate, " + ptx::cite(ptx::Sec::CpAsync) + ")");
    return ignore;
}

/**
 * What cp.async writes to one cell of `width` bytes ({CpAsync#}): the source's cell, of which
 * `copied` bytes come from the source and the rest are zeros ("remaining bytes in destination dst
 * are filled with zeros", src-size), or zeros where "the source data is ignored" (ignore-src).
 * The read of the source is made here, guarded off where no byte of it is copied: a cell past
 * src-size copies none, and a true ignore-src "specifies whether the data from the source
 * location src should be ignored completely".
 */
ir::ValuePtr copiedValue(Lowerer& l, int issueId, const Address& src, int width,
                         std::int64_t copied, const ir::ValuePtr& ignore) {
    const bool none = copied == 0 || (ignore && ignore->isConst() && ignore->constant != 0);
    if (none) return Value::makeConst(0);
    ir::Event& r = l.exec(issueId, "read " + Lowerer::accessName(l.operand(1), src), {Tag::R});
    l.access(r, src, ir::Proxy::Generic);
    l.noteWidth(r, l.operand(1), width);
    setWeak(r);
    ir::ValuePtr read = Value::readOf(r.id);
    if (copied < width) read = lowBytes(read, copied, width);
    if (!ignore || ignore->isConst()) return read;
    // a run-time predicate: the read happens only when it is false
    ir::ValuePtr copies = Value::make(Value::Op::Not, {ignore});
    r.guard = r.guard ? Value::make(Value::Op::LAnd, {r.guard, copies}) : copies;
    return Value::make(Value::Op::Ite, {ignore, Value::makeConst(0), read});
}

} // namespace

/**
 * Non-bulk cp.async (PTX ISA #data-movement-and-conversion-instructions-cp-async): "cp.async is
 * treated as a weak memory operation performed in the generic proxy": a weak generic read of the
 * global source and a weak generic write of the CTA's shared destination, performed asynchronously
 * (after the thread's prior instructions, {ProgramOrderAsync}). Completion: a cp.async-group or
 * cp.async.mbarrier.arrive. Where dst is an array of 4- or 8-byte elements narrower than cp-size,
 * the copy reads and writes each of its elements (src an array of the same elements), and
 * src-size keeps the bytes below it: whole elements, the low bytes of the one it cuts, zeros past
 * it. Elsewhere the destination is one cell standing for the whole copy, which keeps src-size
 * bytes only when it is 4 or 8 bytes wide (a 16-byte cell has no bytes of its own).
 */
void lowerNonBulkCopy(Lowerer& l, const ptx::CpAsync& c) {
    // cp.async [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}: the policy is a
    // hint only
    l.expectOperands(3 + (c.srcSize || c.ignoreSrc ? 1 : 0) + (c.cacheHint ? 1 : 0));
    Address dst = l.address(l.operand(0), ir::Space::Shared);
    if (dst.cta != l.thread().cta)
        l.fail(l.operand(0).loc, "cp.async writes the executing CTA's shared memory "
                                 "(.shared::cta, " +
                                     ptx::cite(ptx::Sec::CpAsync) + ")");
    Address src = l.address(l.operand(1), ir::Space::Global);
    const auto& size = l.operand(2);
    bool ok = size.kind == litmus::Operand::Kind::Integer &&
              (c.cg ? size.value == 16 : (size.value == 4 || size.value == 8 || size.value == 16));
    if (!ok) l.fail(size.loc, c.cg ? "cp.async.cg copies 16 bytes" : "cp-size must be 4, 8 or 16");
    const int cpSize = static_cast<int>(size.value);
    const int stride = l.elementStride(dst);
    const int width = (stride == 4 || stride == 8) && stride < cpSize ? stride : cpSize;
    const std::int64_t srcSize = c.srcSize.value_or(cpSize);
    l.checkAccessWidth(dst, l.operand(0), width);
    l.checkAccessWidth(src, l.operand(1), width);
    if (width == 16 && srcSize != 0 && srcSize != 16)
        l.fail(l.operand(3).loc,
               "src-size " + std::to_string(srcSize) +
                   " of a 16-byte copy into one cell: the cell stands for all 16 bytes and cannot "
                   "be part copied and part zeros; declare '" +
                   l.operand(0).name + "' and '" + l.operand(1).name +
                   "' as arrays of 4- or 8-byte elements (litmus/README.md, Arrays)");
    const ir::ValuePtr ignore = ignoreSrcOf(l, c);
    int issueId = l.issue({Tag::CPA}).id;
    for (int k = 0; k * width < cpSize; ++k) {
        const Address d = k == 0 ? dst : l.elementAfter(dst, l.operand(0), k, width);
        const Address s = k == 0 ? src : l.elementAfter(src, l.operand(1), k, width);
        const std::int64_t copied = std::clamp<std::int64_t>(srcSize - k * width, 0, width);
        ir::ValuePtr v = copiedValue(l, issueId, s, width, copied, ignore);
        ir::Event& w = l.exec(issueId, "write " + Lowerer::accessName(l.operand(0), d), {Tag::W});
        l.access(w, d, ir::Proxy::Generic);
        l.noteWidth(w, l.operand(0), width); // 4 and 8 bytes: a 32-/64-bit word
        setWeak(w);
        w.written = v;
    }
    l.pendingCpAsync.push_back(issueId);
}

namespace {

/** commit_group: the uncommitted copies of the kind form the thread's next group. */
void commitGroup(Lowerer& l, bool nonBulk) {
    ir::Event& e = l.issue({Tag::BCOMMIT});
    e.nonBulkGroup = nonBulk;
    int id = e.id;
    auto& pending = nonBulk ? l.pendingCpAsync : l.pendingBulk;
    for (int copy : pending)
        l.program().events[static_cast<std::size_t>(copy)].bulkGroup = id;
    pending.clear();
    if (!nonBulk) l.committedGroups.push_back(id);
}

} // namespace

void lowerCommitGroup(Lowerer& l, const ptx::BulkCommit& c) {
    l.expectOperands(0);
    commitGroup(l, c.nonBulk);
}

namespace {

/**
 * cp.async.wait_group N / wait_all (PTX ISA
 * #data-movement-and-conversion-instructions-cp-async-wait-group): waits until the thread's older
 * cp.async-groups completed; their writes are then visible to the thread. wait_all "is
 * equivalent to: cp.async.commit_group; cp.async.wait_group 0".
 */
void lowerNonBulkWait(Lowerer& l, const ptx::BulkWait& w) {
    std::int64_t n = 0;
    if (w.all) {
        l.expectOperands(0);
        commitGroup(l, true);
    } else {
        l.expectOperands(1);
        const auto& op = l.operand(0);
        if (op.kind != litmus::Operand::Kind::Integer || op.value < 0 || op.value > 63)
            l.fail(op.loc, "wait_group needs an integer N in [0, 63]");
        n = op.value;
    }
    ir::Event& e = l.issue({Tag::CPA_WAIT, Tag::BLOCKING});
    e.bulkWaitN = static_cast<int>(n);
    e.nonBulkGroup = true;
}

} // namespace

void lowerWaitGroup(Lowerer& l, const ptx::BulkWait& w) {
    if (w.nonBulk) return lowerNonBulkWait(l, w);
    bool read = w.read;
    l.expectOperands(1);
    const auto& n = l.operand(0);
    if (n.kind != litmus::Operand::Kind::Integer || n.value < 0 || n.value > 63)
        l.fail(n.loc, "wait_group needs an integer N in [0, 63]");
    // The implicit generic-async proxy fence belongs to the completion of each copy, not to the
    // wait (PTX ISA #async-proxy). wait_group.read completes only the source reads: whether it
    // orders them like a proxy fence is the model's decision Q8 (READ-WAIT-FENCE), so it carries
    // the coverage of one without being in PF.
    ir::Event& e = l.issue({Tag::BWAIT, Tag::BLOCKING});
    e.bulkWaitN = static_cast<int>(n.value);
    e.bulkWaitRead = read;
    if (read) {
        e.tags.insert(Tag::BWAIT_READ);
        e.tags.insert(Tag::PF_ASYNC);
    }
}

namespace {

/** A try_cancel response as a word: 0 when it failed, else 1 | ctaid.x << 1 (its y and z 0). */
constexpr std::int64_t kCanceledBit = 1;

/** The CTAs the test launches: one more than the largest %ctaid a thread has. */
int launchedCtas(const ptx::Program& test) {
    int n = 0;
    for (const ptx::Thread& t : test.threads)
        n = std::max(n, t.cta + 1);
    return n;
}

} // namespace

/**
 * clusterlaunchcontrol.try_cancel ({ClcTryCancel#}): "It asynchronously writes an opaque response
 * to shared memory indicating whether the operation succeeded or failed. The completion of the
 * asynchronous operation is tracked using the mbarrier completion mechanism at .cluster scope.
 * This instruction accesses its mbarrier operand using generic-proxy." A litmus test launches
 * its own CTAs only, so whether a not-yet-started cluster is left to cancel is not known: each
 * request succeeds or fails, a choice both ways (Value::Op::Choice). On success "the opaque
 * response contains the ctaid of the first CTA of the canceled cluster; no other successful
 * response ... will contain that id": the k-th try_cancel the program lowers cancels the k-th
 * cluster after the launched ones, whose first CTA is %ctaid.x (clusters launched + k) times the
 * cluster's size, y and z 0: distinct clusters, none running. The response is written as a weak
 * async-proxy write, the 9.4 example's "async-proxy write to
 * handle ("clusterlaunchcontrol.try_cancel [addr]")" (its .multicast::cluster::all writes "using
 * weak async-proxy writes to the corresponding local shared memory addr of each CTA in the
 * requesting cluster. The completion of the writes to addr of a particular CTA is signaled via a
 * complete-tx operation to the mbarrier object on the shared memory of that CTA"), after the
 * thread's earlier instructions as a bulk copy's (BULK; {ProgramOrderAsync} lists the copies
 * and wgmma, not try_cancel: a reading), and completes with a complete-tx of its 16 bytes. That
 * completion carries the implicit generic-async proxy fence of a bulk copy's (the text states
 * it for cp{.reduce}.async.bulk only): the example reads the handle with a generic load after an
 * acquire wait alone, which without it would race, so the example needs it (a reading). Not
 * checked: a request after the CTA observed a failed one, and a multicast
 * request after a CTA of the cluster exited, which the text leaves undefined.
 */
void lowerTryCancel(Lowerer& l, const ptx::ClcTryCancel& c) {
    l.expectOperands(2);
    const std::string where = " (" + ptx::cite(ptx::Sec::ClcTryCancel) + ")";
    Address addr = l.address(l.operand(0), ir::Space::Shared);
    Address mb = l.address(l.operand(1), ir::Space::Mbarrier);
    const int cta = l.thread().cta;
    // "both operands addr and mbar must be in the .shared::cta state space"
    if (addr.cta != cta)
        l.fail(l.operand(0).loc,
               "try_cancel's response goes to the executing CTA's shared memory" + where);
    if (mb.cta != cta)
        l.fail(l.operand(1).loc, "try_cancel's mbarrier must be in the executing CTA" + where);
    std::vector<std::pair<Address, Address>> targets;
    if (c.multicast) {
        for (int rank = 0; l.ctaOfRank(cta, rank) >= 0; ++rank) {
            const int target = l.ctaOfRank(cta, rank);
            auto a = l.addressInCta(addr, target);
            auto m = l.addressInCta(mb, target);
            if (!a || !m)
                l.fail((a ? l.operand(1) : l.operand(0)).loc,
                       ".multicast::cluster::all writes the response into every CTA of the "
                       "cluster: '" +
                           (a ? l.operand(1) : l.operand(0)).name + "' has no instance in CTA " +
                           std::to_string(target) + where);
            targets.emplace_back(*a, *m);
        }
    } else {
        targets.emplace_back(addr, mb);
    }
    std::int64_t k = 0; // the try_cancel requests lowered before this one
    for (const ir::ChoiceSite& site : l.program().choices)
        if (site.text.rfind("clusterlaunchcontrol.try_cancel", 0) == 0) ++k;
    ir::ValuePtr succeeded = l.newChoice(l.inst().loc, l.inst().opcode);
    std::int64_t clusterSize = 0;
    while (l.ctaOfRank(cta, static_cast<int>(clusterSize)) >= 0)
        ++clusterSize;
    const std::int64_t launched = (launchedCtas(l.test()) + clusterSize - 1) / clusterSize;
    const std::int64_t ctaidX = (launched + k) * clusterSize;
    ir::ValuePtr response =
        Value::make(Value::Op::Ite,
                    {succeeded, Value::makeConst(kCanceledBit | ctaidX << 1), Value::makeConst(0)});
    const int issueId = l.issue({Tag::BULK, Tag::BULK_MBAR}).id;
    for (const auto& [a, m] : targets) {
        ir::Event& w = l.exec(issueId, "write " + Lowerer::accessName(l.operand(0), a), {Tag::W});
        asyncAccess(l, w, a);
        w.written = response;
        completeTxAtCluster(l, issueId, m, 16, true);
    }
}

/**
 * clusterlaunchcontrol.query_cancel ({ClcQueryCancel#}): decodes a response a thread loaded.
 * ".is_canceled.pred.b128: If the cluster is canceled successfully, predicate p is set to true";
 * .get_first_ctaid "extracts the CTA id of the first CTA in the canceled cluster" (x, y, z, and a
 * 4th element whose contents "are unspecified": 0 here). "If the request fails the behavior of
 * clusterlaunchcontrol.query_cancel.get_first_ctaid is undefined": not checked, it gives 0.
 */
void lowerQueryCancel(Lowerer& l, const ptx::ClcQueryCancel& q) {
    l.expectOperands(2);
    ir::ValuePtr h = l.value(l.operand(1));
    ir::ValuePtr x = Value::make(Value::Op::Lshr, {h, Value::makeConst(1)});
    ir::ValuePtr zero = Value::makeConst(0);
    switch (q.query) {
    case ptx::ClcQuery::IsCanceled:
        l.define(l.operand(0), Value::make(Value::Op::And, {h, Value::makeConst(kCanceledBit)}));
        return;
    case ptx::ClcQuery::FirstCtaidX:
        l.define(l.operand(0), x);
        return;
    case ptx::ClcQuery::FirstCtaidY:
    case ptx::ClcQuery::FirstCtaidZ:
        l.define(l.operand(0), zero);
        return;
    case ptx::ClcQuery::FirstCtaid:
        break;
    }
    const std::vector<litmus::Operand> v = vectorOperand(l, l.operand(0), 4);
    l.define(v[0], x);
    for (std::size_t i = 1; i < v.size(); ++i)
        l.define(v[i], zero);
}

} // namespace ptxmc::lower
