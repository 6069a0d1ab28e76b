#include "filters.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/inflate_stream.h"
#include "docconform/error.h"

namespace docconform::pdf {
namespace {

std::int64_t int_param(const Object* params, std::string_view key, std::int64_t fallback) {
  const Object* value = params != nullptr ? params->get(key) : nullptr;
  return value != nullptr && value->kind == Kind::integer ? value->integer : fallback;
}

// PNG predictors (§7.4.4.4, predictor >= 10): each row starts with its own filter type byte.
// Rows are undone in place, each moving down by one byte per row (the type byte it drops), the
// previous output row serving as the one above; a row's bytes are read before anything is
// written over them. The type is chosen once per row, so the common Up and None rows are plain
// loops.
std::string unpredict_png(std::string data, const Object* params, const FilterContext& ctx) {
  const std::int64_t colors = int_param(params, "Colors", 1);
  const std::int64_t bpc = int_param(params, "BitsPerComponent", 8);
  const std::int64_t columns = int_param(params, "Columns", 1);
  if (colors < 1 || colors > 32 || (bpc != 1 && bpc != 2 && bpc != 4 && bpc != 8 && bpc != 16) || columns < 1 ||
      columns > (1 << 24)) {
    throw Error(ErrorKind::format, {ctx.file, ctx.part, ctx.data_offset}, "invalid predictor parameters");
  }
  const auto bpp = static_cast<std::size_t>(std::max<std::int64_t>(1, (colors * bpc + 7) / 8));
  const auto row = static_cast<std::size_t>((colors * bpc * columns + 7) / 8);
  const std::size_t rows = data.size() / (row + 1);
  const std::string zeros(rows > 0 ? row : 0, '\0');  // the row above the first (sized by the data, never by /Columns alone)
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t at = r * (row + 1);
    const auto type = static_cast<std::uint8_t>(data[at]);
    const auto* in = reinterpret_cast<const std::uint8_t*>(data.data() + at + 1);
    auto* cur = reinterpret_cast<std::uint8_t*>(data.data() + r * row);
    const auto* prev = reinterpret_cast<const std::uint8_t*>(r == 0 ? zeros.data() : data.data() + (r - 1) * row);
    switch (type) {
      case 0:
        std::memmove(cur, in, row);
        break;
      case 1:
        for (std::size_t i = 0; i < row; ++i) cur[i] = static_cast<std::uint8_t>(in[i] + (i >= bpp ? cur[i - bpp] : 0));
        break;
      case 2:
        for (std::size_t i = 0; i < row; ++i) cur[i] = static_cast<std::uint8_t>(in[i] + prev[i]);
        break;
      case 3:
        for (std::size_t i = 0; i < row; ++i) {
          cur[i] = static_cast<std::uint8_t>(in[i] + ((i >= bpp ? cur[i - bpp] : 0) + prev[i]) / 2);
        }
        break;
      case 4:
        for (std::size_t i = 0; i < row; ++i) {
          const int left = i >= bpp ? cur[i - bpp] : 0;
          const int up = prev[i];
          const int up_left = i >= bpp ? prev[i - bpp] : 0;
          const int p = left + up - up_left;
          const int pa = std::abs(p - left), pb = std::abs(p - up), pc = std::abs(p - up_left);
          cur[i] = static_cast<std::uint8_t>(in[i] + ((pa <= pb && pa <= pc) ? left : (pb <= pc ? up : up_left)));
        }
        break;
      default:
        throw Error(ErrorKind::format, {ctx.file, ctx.part, ctx.data_offset},
                    "unknown PNG predictor row type " + std::to_string(type) + " at byte " + std::to_string(at) + " of the inflated data");
    }
  }
  if (data.size() % (row + 1) != 0) {
    throw Error(ErrorKind::format, {ctx.file, ctx.part, ctx.data_offset},
                "predicted data ends inside a row (" + std::to_string(data.size()) + " inflated bytes, rows of " +
                    std::to_string(row + 1) + ")");
  }
  data.resize(rows * row);
  return data;
}

// TIFF predictor 2 (§7.4.4.4) for 8-bit components: each byte adds the one a pixel before it.
std::string unpredict_tiff(std::string data, const Object* params, const FilterContext& ctx) {
  const std::int64_t colors = int_param(params, "Colors", 1);
  const std::int64_t bpc = int_param(params, "BitsPerComponent", 8);
  const std::int64_t columns = int_param(params, "Columns", 1);
  if (bpc != 8) throw Error(ErrorKind::unsupported, {ctx.file, ctx.part, ctx.data_offset}, "TIFF predictor with BitsPerComponent != 8");
  if (colors < 1 || colors > 32 || columns < 1 || columns > (1 << 24)) {
    throw Error(ErrorKind::format, {ctx.file, ctx.part, ctx.data_offset}, "invalid predictor parameters");
  }
  const auto bpp = static_cast<std::size_t>(colors);
  const auto row = static_cast<std::size_t>(colors * columns);
  for (std::size_t start = 0; start < data.size(); start += row) {
    for (std::size_t i = start + bpp; i < std::min(data.size(), start + row); ++i) {
      data[i] = static_cast<char>(static_cast<std::uint8_t>(data[i]) + static_cast<std::uint8_t>(data[i - bpp]));
    }
  }
  return data;
}

std::string apply_predictor(std::string data, const Object* params, const FilterContext& ctx) {
  const std::int64_t predictor = int_param(params, "Predictor", 1);
  if (predictor == 1) return data;
  if (predictor == 2) return unpredict_tiff(std::move(data), params, ctx);
  if (predictor >= 10 && predictor <= 15) return unpredict_png(std::move(data), params, ctx);
  throw Error(ErrorKind::unsupported, {ctx.file, ctx.part, ctx.data_offset}, "predictor " + std::to_string(predictor));
}

}  // namespace

namespace {

// Where zlib's input stands once `cap` bytes have come out: the offset of the limit error, the
// same whichever inflater hit the limit (a faster one reads ahead).
std::uint64_t zlib_input_at_output(std::string_view raw, std::uint64_t cap) {
  InflateStream stream(InflaterKind::zlib, DeflateWrapper::zlib);
  std::vector<std::uint8_t> sink(64 << 10);
  const auto* in = reinterpret_cast<const std::uint8_t*>(raw.data());
  std::size_t at = 0;
  for (std::uint64_t out = 0; out < cap;) {
    const auto step = stream.inflate(in + at, raw.size() - at, sink.data(), std::min<std::uint64_t>(sink.size(), cap - out), true);
    at += step.consumed;
    out += step.produced;
    if (step.status != InflateStatus::more) break;
  }
  return stream.total_in();
}

// Where a faster inflater fails, or finds the deflate data cut short, zlib decodes the stream
// again and its verdict stands: inflaters stop a few bytes apart on bad data, and inside
// invalid data cut short one may see the bad code and the other the early end.
std::string inflate_with(InflaterKind inflater, std::string_view raw, const FilterContext& ctx) {
  const bool reference = inflater == InflaterKind::zlib;
  InflateStream stream(inflater, DeflateWrapper::zlib);
  // Where in the file the encoded byte at `consumed` lies (the stream's start for decoded input).
  const auto file_offset = [&](std::uint64_t consumed) { return ctx.data_offset + (ctx.input_is_file_bytes ? consumed : 0); };
  const auto* in = reinterpret_cast<const std::uint8_t*>(raw.data());
  std::size_t at = 0;
  std::string out;
  // Start near the encoded size (what incompressible clusters need) and double from there:
  // every byte of a chunk is zero-filled by resize, so oversizing costs real time.
  std::size_t chunk = std::max<std::size_t>(raw.size() + raw.size() / 4, 16384);
  const std::uint64_t cap = std::min<std::uint64_t>(
      ctx.limits.max_stream_decoded, std::max<std::uint64_t>(1ull << 20, raw.size() * ctx.limits.inflate_ratio));
  for (;;) {
    const std::size_t used = out.size();
    if (used >= cap) {
      const std::uint64_t consumed = reference ? stream.total_in() : zlib_input_at_output(raw, cap);
      throw Error(ErrorKind::limit, {ctx.file, ctx.part, file_offset(consumed)},
                  "inflated data exceeds " + std::to_string(cap) + " bytes (decoded-size / inflate-ratio limit)");
    }
    chunk = std::min<std::uint64_t>(chunk, cap - used);
    out.resize(used + chunk);
    const auto step = stream.inflate(in + at, raw.size() - at, reinterpret_cast<std::uint8_t*>(out.data() + used), chunk, true);
    at += step.consumed;
    out.resize(used + step.produced);
    if (step.status == InflateStatus::end) return out;
    if (step.status == InflateStatus::truncated) {
      if (!reference && !stream.deflate_ended()) return inflate_with(InflaterKind::zlib, raw, ctx);
      return out;  // a stream whose input ends before its end keeps what came
    }
    if (step.status != InflateStatus::more) {
      if (!reference) return inflate_with(InflaterKind::zlib, raw, ctx);
      throw Error(ErrorKind::format, {ctx.file, ctx.part, file_offset(stream.total_in())},
                  "corrupt deflate data: " + std::string(stream.error_detail()));
    }
    chunk *= 2;
  }
}

}  // namespace

std::string inflate(std::string_view raw, const FilterContext& ctx) { return inflate_with(ctx.limits.inflater, raw, ctx); }

std::string decode_stream(const Object& dict, std::string_view raw, const FilterContext& ctx) {
  const Object* filter = dict.get("Filter");
  const Object* params = dict.get("DecodeParms");
  if (filter == nullptr || (filter->kind == Kind::array && filter->items.empty())) return std::string(raw);
  std::vector<const Object*> filters, parameters;
  if (filter->kind == Kind::array) {
    for (std::size_t i = 0; i < filter->items.size(); ++i) {
      filters.push_back(&filter->items[i]);
      parameters.push_back(params != nullptr && params->kind == Kind::array && i < params->items.size()
                               ? &params->items[i] : nullptr);
    }
  } else {
    filters.push_back(filter);
    parameters.push_back(params != nullptr && params->kind == Kind::dict ? params : nullptr);
  }
  std::string data;
  for (std::size_t i = 0; i < filters.size(); ++i) {
    if (filters[i]->kind != Kind::name) throw Error(ErrorKind::format, {ctx.file, ctx.part, ctx.data_offset}, "/Filter is not a name");
    const std::string& name = filters[i]->bytes;
    if (name != "FlateDecode" && name != "Fl") {
      throw Error(ErrorKind::unsupported, {ctx.file, ctx.part, ctx.data_offset}, "filter /" + name);
    }
    const Object* p = parameters[i] != nullptr && parameters[i]->kind == Kind::dict ? parameters[i] : nullptr;
    FilterContext step = ctx;
    step.input_is_file_bytes = ctx.input_is_file_bytes && i == 0;
    data = apply_predictor(inflate(i == 0 ? raw : std::string_view(data), step), p, step);
  }
  return data;
}

}  // namespace docconform::pdf
