// Gives parameter fields from the command line, a --params file or a dump, and reads them at loads.
#include "kernel/ParamFields.hpp"

#include "kernel/Arith.hpp"
#include "kernel/Extract.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ptxmc::kernel {

ParamFields::ParamFields(const Function& entry, const Layout& layout, const Launch& launch)
    : f_(entry), layout_(layout), launch_(launch) {
    for (const auto& [key, value] : launch_.params)
        giveField(key, value, false);
    // a field --param gives too keeps --param's value: the command line edits the file
    for (const auto& [key, value] : launch_.fileParams)
        giveField(key, value, true);
    for (const auto& [name, bytes] : launch_.paramBytes)
        giveBytes(name, bytes);
}

bool ParamFields::names(std::size_t i, const std::string& given) const {
    const std::string& n = f_.params[i].name;
    return n == given || std::to_string(i) == given ||
           (n.size() > given.size() &&
            n.compare(n.size() - given.size(), given.size(), given) == 0 &&
            n[n.size() - given.size() - 1] == '_');
}

std::string ParamFields::names() const {
    std::string s;
    for (std::size_t i = 0; i < f_.params.size(); ++i)
        s += (i ? ", " : "") + std::to_string(i) + " = " + f_.params[i].name;
    return s.empty() ? "none" : s;
}

std::string ParamFields::fieldName(std::size_t index, std::uint64_t offset) const {
    return offset == 0 ? std::to_string(index) : fmt::format("{}+{}", index, offset);
}

void ParamFields::giveBytes(const std::string& given, const std::vector<std::uint8_t>& bytes) {
    SourceLoc at{"--param-bytes", 1, 1};
    bool found = false;
    for (std::size_t i = 0; i < f_.params.size(); ++i) {
        if (!names(i, given)) continue;
        found = true;
        if (bytes.size() != f_.params[i].bytes)
            throw InputError(at, fmt::format("--param-bytes {} gives {} bytes; parameter {} "
                                             "({}) has {}: dump the parameter the entry "
                                             "takes, whole",
                                             given, bytes.size(), i, shortName(f_.params[i].name),
                                             f_.params[i].bytes));
        dumps_[i] = bytes;
    }
    if (!found)
        throw InputError(at, "the entry has no parameter '" + given +
                                 "' (its parameters: " + names() + ")");
}

SourceLoc ParamFields::givenAt(const Key& key, bool fromFile) const {
    auto it = launch_.paramWhere.find(key);
    return fromFile && it != launch_.paramWhere.end() ? it->second : SourceLoc{"--param", 1, 1};
}

void ParamFields::giveField(const Key& key, std::uint64_t value, bool fromFile) {
    const auto& [given, offset] = key;
    bool found = false;
    for (std::size_t i = 0; i < f_.params.size(); ++i) {
        if (!names(i, given)) continue;
        if (offset >= std::max<std::uint64_t>(f_.params[i].bytes, 1))
            throw InputError(givenAt(key, fromFile),
                             fmt::format("parameter {} ({}) has {} bytes: offset {} is outside it",
                                         i, shortName(f_.params[i].name), f_.params[i].bytes,
                                         offset));
        found = true;
        Field field{i, offset};
        if (fromFile && givenFrom_.count(field) && !givenFrom_.at(field).second) continue;
        auto [old, fresh] = given_.emplace(field, value);
        if (!fresh && old->second != value)
            throw InputError(givenAt(key, fromFile),
                             fmt::format("{} gives field {} twice, {} and {}",
                                         fromFile ? "--params" : "--param", fieldName(i, offset),
                                         old->second, value));
        givenFrom_.emplace(field, std::make_pair(key, fromFile));
    }
    if (!found)
        throw InputError(givenAt(key, fromFile), "the entry has no parameter '" + given +
                                                     "' (its parameters: " + names() + ")");
}

std::vector<Note> ParamFields::unread(const std::vector<ParamRead>& reads) const {
    std::set<Field> read;
    for (const ParamRead& r : reads)
        read.emplace(r.index, r.offset);
    std::vector<Note> out;
    for (const auto& [field, from] : givenFrom_) {
        if (read.count(field)) continue;
        const auto& [key, fromFile] = from;
        std::string name = key.second ? fmt::format("{}+{}", key.first, key.second) : key.first;
        out.push_back(Note{fromFile ? givenAt(key, true) : SourceLoc{},
                           fmt::format("{}{}={}: the kernel never reads parameter field {} in "
                                       "this launch",
                                       fromFile ? "field " : "--param ", name, given_.at(field),
                                       fieldName(field.first, field.second))});
    }
    return out;
}

std::optional<Note> ParamFields::notGiven(const std::vector<ParamRead>& reads) const {
    std::string missing;
    std::size_t count = 0;
    std::set<std::string> fields;
    for (const ParamRead& r : reads)
        if (!r.value && fields.insert(r.field()).second && ++count <= 8)
            missing += (missing.empty() ? "" : ", ") + r.field();
    if (count == 0) return std::nullopt;
    return Note{SourceLoc{},
                fmt::format("{} parameter field(s) not given with --param: {}{} (what depends "
                            "on them is data; --list-params lists them)",
                            count, missing, count > 8 ? ", ..." : "")};
}

std::uint64_t ParamFields::loadBytes(const std::vector<std::string>& parts) {
    return ptx::valueForm(ptx::ModuleOp::Other, parts).bytes();
}

void ParamFields::checkCover(const litmus::Instruction& in, std::size_t index, std::uint64_t off,
                             std::uint64_t bytes) const {
    auto given = given_.find({index, off});
    // a load covering another given field, or bytes of a field read wider before
    auto next = given_.upper_bound({index, off});
    std::optional<std::uint64_t> inside;
    if (next != given_.end() && next->first.first == index && next->first.second < off + bytes)
        inside = next->first.second;
    if (given == given_.end() && next != given_.begin()) {
        auto prev = std::prev(next);
        auto width = readBytes_.find(prev->first);
        if (prev->first.first == index && width != readBytes_.end() &&
            prev->first.second + width->second > off)
            inside = prev->first.second;
    }
    if (!inside) return;
    std::string what =
        given != given_.end()
            ? fmt::format("which straddle the fields {} and {} given with --param",
                          fieldName(index, off), fieldName(index, *inside))
        : *inside > off ? fmt::format("of which --param gives only a part (field {})",
                                      fieldName(index, *inside))
                        : fmt::format("inside field {}, which --param gives and a wider load reads",
                                      fieldName(index, *inside));
    throw InputError(in.loc, fmt::format("this {}-byte load reads parameter bytes {}..{}, {}: give "
                                         "each field at the offset and width its loads use",
                                         bytes, fieldName(index, off),
                                         fieldName(index, off + bytes - 1), what));
}

Val ParamFields::load(std::size_t stmt, Val addr, std::uint64_t at, std::uint64_t bytes,
                      std::vector<ParamRead>& reads) {
    if (!addr.known || addr.v < Layout::kGenericParam) return Val{};
    auto p = layout_.paramAt(addr.v - Layout::kGenericParam + at);
    if (!p) return Val{};
    const litmus::Instruction& in = f_.body[stmt].insn;
    std::size_t index = static_cast<std::size_t>(p->first->var - f_.params.data());
    std::uint64_t off = p->second;
    checkCover(in, index, off, bytes);
    std::optional<std::uint64_t> value = dumped(index, off, bytes);
    if (auto given = given_.find({index, off}); given != given_.end()) {
        std::uint64_t v = given->second;
        int bits = static_cast<int>(bytes * 8);
        if (bits < 64 && (v >> bits) != 0 && (v >> (bits - 1)) != (~0ULL >> (bits - 1)))
            throw InputError(in.loc, fmt::format("--param {}={} does not fit the {}-byte load here",
                                                 fieldName(index, off), v, bytes));
        value = mask(v, bits);
        auto& w = readBytes_[given->first];
        w = std::max(w, bytes);
    }
    auto [it, fresh] = reads_.emplace(std::make_tuple(index, off, bytes, stmt), reads.size());
    if (fresh) {
        ParamRead r;
        r.index = index;
        r.param = p->first->var->name;
        r.offset = off;
        r.bytes = bytes;
        r.value = value;
        r.loc = in.loc;
        r.cuda = f_.body[stmt].cuda;
        reads.push_back(r);
    }
    if (value) return Val::of(*value);
    return Val{false, static_cast<std::uint32_t>(it->second + 1), 0};
}

std::optional<std::uint64_t> ParamFields::dumped(std::size_t index, std::uint64_t off,
                                                 std::uint64_t bytes) const {
    auto dump = dumps_.find(index);
    if (dump == dumps_.end() || bytes > 8 || off + bytes > dump->second.size()) return std::nullopt;
    std::uint64_t v = 0;
    for (std::uint64_t b = 0; b < bytes; ++b)
        v |= std::uint64_t{dump->second[off + b]} << (8 * b);
    return v;
}

} // namespace ptxmc::kernel
