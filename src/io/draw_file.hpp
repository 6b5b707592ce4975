#pragma once
// Private to src/io: the `draw:` section reader and its result.json block (see stasis/io/draw.hpp).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "stasis/io/draw.hpp"
#include "yaml_document.hpp"

namespace stasis::io::detail {

/// `draw:` read in the model's scope (states, parameters, definitions, `t`). `states` are the
/// state names of the model's PSS (the result columns), `controls` its control names (point
/// expressions may not depend on controls). Errors are located (file:line:col).
DrawSpec read_draw(const YamlDocument& doc, const MapEntry& section, const Scope& scope,
                   const std::vector<std::string>& states, const std::vector<std::string>& controls);

/// The "draw" block of result.json: points {name: {x: [...], z: [...], radius?}}, links
/// [[a, b], ...], ground [{z} or {from, to}], obstacles [{ellipse: {center, axes}} | {line: {from, to}}].
nlohmann::json draw_json(const DrawSpec& spec, const DrawFrames& frames);

/// evaluate_draw + draw_json.
nlohmann::json draw_json(const DrawSpec& spec, const std::vector<double>& time,
                         const std::vector<std::string>& state_names,
                         const std::vector<std::vector<double>>& states);

}  // namespace stasis::io::detail
