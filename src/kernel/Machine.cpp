// The evaluation's entry points and error helpers: which entry, which field a message asks for.
#include "kernel/Machine.hpp"

#include "kernel/Evaluator.hpp"
#include "kernel/Extract.hpp"

#include <fmt/format.h>

namespace ptxmc::kernel {

std::string ParamRead::field() const {
    return offset == 0 ? std::to_string(index) : fmt::format("{}+{}", index, offset);
}

std::string missingField(const Extraction& x, const Val& v) {
    if (v.known || v.field == 0 || v.field > x.paramReads.size()) return "";
    const ParamRead& r = x.paramReads[v.field - 1];
    return fmt::format(
        "parameter field {} ({}{}, {} bytes read at {}{}), which --param does "
        "not give: add --param {}=VALUE",
        r.field(), shortName(r.param), r.offset ? "+" + std::to_string(r.offset) : std::string(),
        r.bytes, r.loc.str(),
        r.cuda ? fmt::format(" ({}:{})", r.cuda->userLine().file, r.cuda->userLine().line)
               : std::string(),
        r.field());
}

void failOnValue(const SourceLoc& loc, const std::string& what, const Extraction& x, const Val& v,
                 const std::string& otherwise, const std::string& after) {
    std::string field = missingField(x, v);
    if (field.empty()) throw InputError(loc, what + otherwise + after);
    throw FieldError(loc, what + field + after, x.paramReads[v.field - 1].field());
}

Note noteOf(const InputError& e) {
    const auto* asks = dynamic_cast<const FieldError*>(&e);
    return Note{e.loc(), e.message(), asks ? asks->field() : std::string()};
}

const Function& pickEntry(const Module& m, const std::string& name) {
    std::vector<const Function*> entries;
    for (const Function& f : m.functions)
        if (f.isEntry) entries.push_back(&f);
    if (!name.empty()) {
        for (const Function* f : entries)
            if (f->name == name || f->name.find(name) != std::string::npos) return *f;
        throw InputError(SourceLoc{m.file, 0, 0}, "no entry named '" + name + "' in the module");
    }
    if (entries.size() == 1) return *entries[0];
    std::string names;
    for (const Function* f : entries)
        names += (names.empty() ? "" : ", ") + f->name;
    throw InputError(SourceLoc{m.file, 0, 0},
                     entries.empty() ? std::string("the module has no .entry")
                                     : "the module has " + std::to_string(entries.size()) +
                                           " entries (" + names + "): choose one with --entry");
}

Extraction evaluate(const Module& m, const Function& entry, const Launch& launch) {
    Extraction out;
    Evaluator(m, entry, launch, out).run();
    return out;
}

} // namespace ptxmc::kernel
