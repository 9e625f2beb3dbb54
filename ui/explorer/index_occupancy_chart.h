#pragma once

// IndexOccupancyChart: a bar chart of one index file's hash-slot table — how many slots of each
// equal range (bucket) hold an entry — so a skewed hash or a nearly full table shows at a glance.
// Hovering a bar tells its slot range and count. The counts come from
// StoreReader::indexSlotOccupancy, computed by the caller off the GUI thread.

#include <QWidget>

#include <cstdint>
#include <vector>

class QCPBars;
class QCustomPlot;

namespace mqdesk::ui {

class IndexOccupancyChart : public QWidget
{
    Q_OBJECT

public:
    explicit IndexOccupancyChart(QWidget *parent = nullptr);

    // `occupied[i]`: non-empty slots in bucket i of `slotCount` slots split evenly.
    void setOccupancy(const std::vector<int64_t> &occupied, int64_t slotCount);
    void clear();
    // The text the hover shows for the bar at slot `slot` (empty off the bars).
    QString hoverText(double slot) const;
    int bucketCount() const { return static_cast<int>(occupied_.size()); }
    int64_t occupiedSlots() const;

private:
    // Slots [first, end) of bucket i, as indexSlotOccupancy splits them.
    std::pair<int64_t, int64_t> bucketRange(int bucket) const;

    QCustomPlot *plot_ = nullptr;
    QCPBars *bars_ = nullptr;
    std::vector<int64_t> occupied_;
    int64_t slotCount_ = 0;
};

} // namespace mqdesk::ui
