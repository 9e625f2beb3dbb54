#pragma once

// Updates a table model's rows in place from a fresh fetch, so views keep their selection,
// current row, sort and scroll position: rows no longer listed are removed, new ones inserted
// (beginRemoveRows / beginInsertRows, one call per contiguous run) and rows that changed are
// reported through `changed` (dataChanged). Both lists are sorted ascending by key, keys unique.

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace mqdesk::ui {

// `model` provides beginRemove(first, last), endRemove(), beginInsert(first, last), endInsert();
// `assign(Row &current, Row &&fresh)` updates a kept row and returns whether it changed;
// `changed(row)` reports that row.
template <typename Row, typename Key, typename Ops, typename Assign, typename Changed>
void mergeSortedRows(std::vector<Row> &rows, std::vector<Row> fresh, Key key, Ops &&model, Assign assign,
                     Changed changed)
{
    size_t i = 0;
    size_t j = 0;
    while (i < rows.size() || j < fresh.size()) {
        if (j == fresh.size() || (i < rows.size() && key(rows[i]) < key(fresh[j]))) {
            size_t end = i + 1;
            while (end < rows.size() && (j == fresh.size() || key(rows[end]) < key(fresh[j])))
                ++end;
            model.beginRemove(static_cast<int>(i), static_cast<int>(end - 1));
            rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(i), rows.begin() + static_cast<std::ptrdiff_t>(end));
            model.endRemove();
        } else if (i == rows.size() || key(fresh[j]) < key(rows[i])) {
            size_t end = j + 1;
            while (end < fresh.size() && (i == rows.size() || key(fresh[end]) < key(rows[i])))
                ++end;
            const size_t count = end - j;
            model.beginInsert(static_cast<int>(i), static_cast<int>(i + count - 1));
            rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(i),
                        std::make_move_iterator(fresh.begin() + static_cast<std::ptrdiff_t>(j)),
                        std::make_move_iterator(fresh.begin() + static_cast<std::ptrdiff_t>(end)));
            model.endInsert();
            i += count;
            j = end;
        } else {
            if (assign(rows[i], std::move(fresh[j])))
                changed(static_cast<int>(i));
            ++i;
            ++j;
        }
    }
}

} // namespace mqdesk::ui
