// The base vocabulary table, built from Vocabulary.def.
#include "ir/Vocabulary.hpp"

#include <algorithm>

namespace ptxmc::ir {

const std::vector<BaseName>& baseVocabulary() {
    static const std::vector<BaseName> table = {
#define PTXMC_SET(n, doc, src) BaseName{#n, true, false, doc, src},
#define PTXMC_REL(id, n, choice, doc, src) BaseName{n, false, choice, doc, src},
#include "ir/Vocabulary.def"
    };
    return table;
}

const BaseName* findBaseName(const std::string& name) {
    const auto& table = baseVocabulary();
    auto it =
        std::find_if(table.begin(), table.end(), [&](const BaseName& b) { return b.name == name; });
    return it == table.end() ? nullptr : &*it;
}

} // namespace ptxmc::ir
