// Shared helpers of the per-family decoders (Decode*.cpp).
#pragma once

#include "ptx/Decode.hpp"
#include "ptx/Qualifiers.hpp"
#include "ptx/Sections.hpp"
#include "ptx/Tables.hpp"

#include <string>

namespace ptxmc::ptx::detail {

/** Decoding state of one instruction: its qualifiers and where errors are reported. */
struct Decoder {
    const litmus::Instruction& inst;
    Qualifiers q;
    const CtaGroupHook& onCtaGroup;

    [[noreturn]] void fail(const std::string& message) const {
        throw InputError(inst.loc, message);
    }

    /** The first written qualifier spelled as a row of `table` (consumed). */
    template <class E, std::size_t N> std::optional<E> takeRow(const std::array<Row<E>, N>& table) {
        auto s = q.takeIf([&](const std::string& p) { return valueOf(table, p).has_value(); });
        return s ? valueOf(table, *s) : std::nullopt;
    }
    /** The first written scope among `allowed` (consumed), or Scope::None. */
    Scope takeScope(std::initializer_list<Scope> allowed);
    std::vector<Type> takeTypes();
};

std::optional<Op> decodeGeneric(Decoder& d);
std::optional<Op> decodeControl(Decoder& d);
Op decodeMbarrier(Decoder& d);
/** cp.async.bulk.*, cp.reduce.async.bulk, cp.async.* (non-bulk), cp.async.mbarrier.arrive */
Op decodeAsyncCopy(Decoder& d);
Op decodeTcgen05(Decoder& d);
/** clusterlaunchcontrol.try_cancel and clusterlaunchcontrol.query_cancel */
Op decodeClusterLaunchControl(Decoder& d);
Op decodeWgmma(Decoder& d);
/** multimem.ld_reduce, .st, .red, .st.async, .red.async, .cp.async.bulk, .cp.reduce.async.bulk */
Op decodeMultimem(Decoder& d);
/** multimem.cp.async.bulk and multimem.cp.reduce.async.bulk: a BulkCopy with `multimem` */
Op decodeMultimemCopy(Decoder& d, bool reduce);

} // namespace ptxmc::ptx::detail
