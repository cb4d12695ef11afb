// A bulk copy's .report_mechanism: the report-on its inspection of the copied data may issue.
#include "lower/CopyReport.hpp"

#include "ptx/Sections.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace ptxmc::lower {

using ir::Value;

namespace {

/** What a mechanism matches: elements of `bits` bits equal to `pattern`. */
struct Inspection {
    int bits;
    std::int64_t pattern;
};

/**
 * Table 33 of {AsyncCopyReportMechanisms}: "::per_16bytes ::80000000 FP32 ... ::8000 FP16 ...
 * ::80 FP8 ... ::8 FP4", matching bit pattern "-0"; "::per_element ::ff 8bit/4bit NaN / 0xF".
 * The qualifier spells each pattern: -0 of the format, and 0xff for 8-bit elements, whose 4-bit
 * reading is 0xf.
 */
Inspection inspectionOf(ptx::ReportMechanism m) {
    switch (m) {
    case ptx::ReportMechanism::Per16Fp32:
        return {32, 0x80000000};
    case ptx::ReportMechanism::Per16Fp16:
        return {16, 0x8000};
    case ptx::ReportMechanism::Per16Fp8:
        return {8, 0x80};
    case ptx::ReportMechanism::Per16Fp4:
        return {4, 0x8};
    case ptx::ReportMechanism::PerElementFF:
        return {8, 0xff};
    case ptx::ReportMechanism::Disabled:
        break;
    }
    return {0, 0};
}

ir::ValuePtr konst(std::int64_t v) {
    return Value::makeConst(v);
}

ir::ValuePtr both(const ir::ValuePtr& a, const ir::ValuePtr& b) {
    return a ? Value::make(Value::Op::LAnd, {a, b}) : b;
}

ir::ValuePtr either(const ir::ValuePtr& a, const ir::ValuePtr& b) {
    return a ? Value::make(Value::Op::LOr, {a, b}) : b;
}

/**
 * 1 where the source bits [first, first + bits) of the copy (little-endian, cell k holding bytes
 * [k * cellBytes, (k + 1) * cellBytes)) equal `pattern`: each cell's part compared on its own.
 */
ir::ValuePtr bitsEqual(const std::vector<int>& reads, int cellBytes, std::int64_t first, int bits,
                       std::int64_t pattern) {
    const std::int64_t cellBits = std::int64_t{8} * cellBytes;
    ir::ValuePtr out;
    for (std::int64_t at = first; at < first + bits;) {
        const std::size_t k = static_cast<std::size_t>(at / cellBits);
        const std::int64_t cellStart = static_cast<std::int64_t>(k) * cellBits;
        const std::int64_t to = std::min(first + bits, cellStart + cellBits);
        const std::int64_t width = to - at, mask = (std::int64_t{1} << width) - 1;
        const ir::ValuePtr part = Value::make(
            Value::Op::And,
            {Value::make(Value::Op::Lshr, {Value::readOf(reads[k]), konst(at - cellStart)}),
             konst(mask)});
        out =
            both(out, Value::make(Value::Op::Eq, {part, konst((pattern >> (at - first)) & mask)}));
        at = to;
    }
    return out;
}

/** Each object the copy reports on was initialised with .layout::v1, and only with it. */
void checkLayouts(Lowerer& l, const std::vector<Address>& mbarriers) {
    const std::string where = " (" + ptx::cite(ptx::Sec::AsyncCopyReportMechanisms) + ")";
    const litmus::Operand& mb = l.operand(3);
    for (const Address& a : mbarriers) {
        const std::set<int> layouts = l.initLayouts(a);
        if (layouts.count(0) != 0U && layouts.size() == 1)
            l.fail(mb.loc, "\"when the .report_mechanism is specified for data inspection, the "
                           "associated mbarrier operand must have been initialized with the "
                           "layout .layout::v1, otherwise the behavior is undefined\", and the "
                           "test initialises '" +
                               mb.name +
                               "' with .layout::v0 (a declaration with ', count N' is "
                               "one; mbarrier.init.layout::v1 it instead)" +
                               where);
        if (layouts.size() > 1)
            l.fail(mb.loc, "the copy reports on '" + mb.name +
                               "', which the test initialises with both .layout::v0 and "
                               ".layout::v1 (ptxmc tells layouts apart per declared location, "
                               "not per element, CTA or re-init), and which init a copy reports "
                               "on is not modelled" +
                               where);
    }
}

} // namespace

/**
 * "A sampled element from the aligned 16 byte chunk of the source global memory is matched
 * with the Matching bit-pattern" (per_16bytes), "Each element is matched" (per_element); "If the
 * pattern matches, issues a report-on operation on the mbarrier" ({AsyncCopyReportMechanisms}).
 * Which element a chunk samples, whether per_element's elements are 8 or 4 bits, and whether
 * its "NaN" is the qualifier's 0xff or any FP8 NaN (the table gives both), the text leaves
 * open: every way is explored. So the copy reports where some chunk matches whatever it
 * samples (every element does; every 8-bit and so every 4-bit reading matches), does not where
 * nothing could match, and either way (one choice) otherwise: the same outcomes as a choice per
 * chunk, with one choice in all.
 */
ir::ValuePtr copyReport(Lowerer& l, ptx::ReportMechanism mechanism, const std::vector<int>& reads,
                        int cellBytes, std::int64_t size, const std::vector<Address>& mbarriers) {
    if (mechanism == ptx::ReportMechanism::Disabled) return nullptr;
    if (cellBytes > 4)
        l.fail(l.operand(1).loc,
               "the copy inspects the elements of '" + l.operand(1).name +
                   "' it copies, and ptxmc holds their bits in cells of 4 bytes at most: declare "
                   "the source (and destination) arrays of stride 1, 2 or 4 (a .relaxed .b128 "
                   "copy, atomic in 16-byte cells, cannot report in ptxmc) (" +
                   ptx::cite(ptx::Sec::AsyncCopyReportMechanisms) + ")");
    checkLayouts(l, mbarriers);
    const Inspection in = inspectionOf(mechanism);
    const bool perElement = mechanism == ptx::ReportMechanism::PerElementFF;
    ir::ValuePtr surely, maybe; // some chunk (byte) matches however read; some might
    for (std::int64_t chunk = 0; chunk < size; chunk += perElement ? 1 : 16) {
        if (perElement) {
            const std::int64_t bit = chunk * 8;
            surely = either(surely, bitsEqual(reads, cellBytes, bit, 8, 0xff));
            maybe = either(maybe, either(bitsEqual(reads, cellBytes, bit, 4, 0xf),
                                         bitsEqual(reads, cellBytes, bit + 4, 4, 0xf)));
            // "NaN" read as an FP8 NaN rather than the qualifier's 0xff: E4M3's S.1111.111 and
            // E5M2's S.11111.{01,10,11}; the bytes with a 0xf nibble are counted already
            for (const std::int64_t nan : {0x7d, 0x7e})
                maybe = either(maybe, bitsEqual(reads, cellBytes, bit, 8, nan));
            continue;
        }
        ir::ValuePtr all, any;
        for (std::int64_t bit = chunk * 8; bit < (chunk + 16) * 8; bit += in.bits) {
            const ir::ValuePtr match = bitsEqual(reads, cellBytes, bit, in.bits, in.pattern);
            all = both(all, match);
            any = either(any, match);
        }
        surely = either(surely, all);
        maybe = either(maybe, any);
    }
    if (surely->isConst() && surely->constant != 0) return konst(1);
    if (maybe->isConst() && maybe->constant == 0) return konst(0);
    const ir::ValuePtr sampled =
        l.newChoice(l.inst().loc, l.inst().opcode + " (the element its inspection samples: " +
                                      ptx::cite(ptx::Sec::AsyncCopyReportMechanisms) + ")");
    return Value::make(Value::Op::Ite,
                       {surely, konst(1), Value::make(Value::Op::Ite, {maybe, sampled, konst(0)})});
}

} // namespace ptxmc::lower
