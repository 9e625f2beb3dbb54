#pragma once

// RecordView: one commit-log record field by field (recordLayout, broker/store/record_layout.h)
// above its bytes (HexView). Selecting a field highlights its bytes; clicking a byte selects the
// field holding it. The bytes are read and laid out off the GUI thread.

#include "broker/store/reader/record_layout.h"
#include "broker/store/reader/store_reader.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace mqdesk::ui {

class BackgroundScan;
class HexView;

class RecordView : public QWidget
{
    Q_OBJECT

public:
    RecordView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    // Shows the record of `size` bytes at commit-log `offset` (size ≤ 0: shows nothing).
    void showRecord(qint64 offset, qint64 size);
    void clear();
    qint64 recordOffset() const { return offset_; }
    bool isLoading() const;

    QString summaryText() const; // the line above the fields: offset, size, why the layout stops
    QTreeWidget *fieldTree() const { return fields_; }
    HexView *hexView() const { return hex_; }
    // Selects the field called `name` (top level, or "PARENT/child"); false when there is none.
    bool selectField(const QString &path);

signals:
    void loaded(); // the record's fields and bytes are on screen

private:
    void showLayout(const QByteArray &bytes, const store::RecordLayout &layout);
    void addFields(QTreeWidgetItem *parent, const std::vector<store::RecordField> &fields);
    void onFieldSelected();
    void onByteClicked(qint64 position);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *load_ = nullptr;
    QLabel *summary_ = nullptr;
    QTreeWidget *fields_ = nullptr;
    HexView *hex_ = nullptr;
    store::RecordLayout layout_;
    qint64 offset_ = -1;
};

} // namespace mqdesk::ui
