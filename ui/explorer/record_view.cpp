#include "ui/explorer/record_view.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/hex_view.h"

#include "broker/store/reader/revive_body.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {
enum FieldRole { OffsetRole = Qt::UserRole, LengthRole };
// A record is at most 4 MiB of body plus 64 KiB (store-format §3.6); anything claiming more is
// damaged, and its first bytes are what the user needs to see.
constexpr qint64 kMaxShownBytes = 4 * 1024 * 1024 + 64 * 1024;

struct LoadedRecord
{
    QByteArray bytes;
    store::RecordLayout layout;
};

const store::RecordField *findField(const std::vector<store::RecordField> &fields, std::string_view name)
{
    for (const auto &field : fields)
        if (field.name == name)
            return &field;
    return nullptr;
}

// A record of the POP revive topic: its body's CK / ACK fields, after the record's own fields
// (each spanning the body's bytes: the JSON keeps no position per field).
void addReviveBody(store::RecordLayout &layout, const std::vector<uint8_t> &bytes)
{
    const store::RecordField *topic = findField(layout.fields, "TOPIC");
    const store::RecordField *body = findField(layout.fields, "BODY");
    if (!topic || !body || !store::isReviveTopic(topic->value) || body->offset + body->length > int64_t(bytes.size()))
        return;
    const store::RecordField *properties = findField(layout.fields, "PROPERTIES");
    const store::RecordField *tags = properties ? findField(properties->children, "TAGS") : nullptr;
    const std::string_view text(reinterpret_cast<const char *>(bytes.data() + body->offset), size_t(body->length));
    const store::ReviveBody revive = store::decodeReviveBody(tags ? tags->value : std::string(), text);
    store::RecordField decoded;
    decoded.name = "REVIVE " + (revive.kind.empty() ? std::string("BODY") : revive.kind);
    decoded.offset = body->offset;
    decoded.length = body->length;
    decoded.value = revive.error.empty() ? std::to_string(revive.fields.size()) + " fields" : revive.error;
    for (const auto &field : revive.fields)
        decoded.children.push_back({field.name + " (" + field.key + ")", body->offset, body->length, field.value, {}});
    layout.fields.push_back(std::move(decoded));
}
} // namespace

RecordView::RecordView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), reader_(std::move(reader)), load_(new BackgroundScan(this))
{
    summary_ = new QLabel(this);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setWordWrap(true);
    fields_ = new QTreeWidget(this);
    fields_->setColumnCount(3);
    fields_->setHeaderLabels({tr("Field"), tr("Bytes"), tr("Value")});
    fields_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    fields_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    fields_->setUniformRowHeights(true);
    hex_ = new HexView(this);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(fields_);
    splitter->addWidget(hex_);
    // The hex pane keeps the width of a whole row; the field tree takes what is left.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(splitter, 1);
    connect(fields_, &QTreeWidget::itemSelectionChanged, this, &RecordView::onFieldSelected);
    connect(hex_, &HexView::byteClicked, this, &RecordView::onByteClicked);
    clear();
}

bool RecordView::isLoading() const { return load_->isRunning(); }

QString RecordView::summaryText() const { return summary_->text(); }

void RecordView::clear()
{
    load_->cancel();
    offset_ = -1;
    layout_ = {};
    fields_->clear();
    hex_->setBytes({}, 0);
    summary_->setText(tr("Select a record to see its fields and bytes."));
}

void RecordView::showRecord(qint64 offset, qint64 size)
{
    if (size <= 0) {
        clear();
        return;
    }
    offset_ = offset;
    summary_->setText(tr("Reading the record at offset %1…").arg(offset));
    auto reader = reader_;
    const qint64 length = qMin(size, kMaxShownBytes);
    load_->start(
        [reader, offset, length](const store::ScanProgress &) {
            LoadedRecord loaded;
            const std::vector<uint8_t> bytes = reader->readCommitLogBytes(offset, length);
            loaded.bytes = QByteArray(reinterpret_cast<const char *>(bytes.data()), static_cast<qsizetype>(bytes.size()));
            loaded.layout = store::recordLayout(bytes);
            addReviveBody(loaded.layout, bytes);
            return loaded;
        },
        [this](LoadedRecord loaded) { showLayout(loaded.bytes, loaded.layout); });
}

void RecordView::showLayout(const QByteArray &bytes, const store::RecordLayout &layout)
{
    layout_ = layout;
    fields_->clear();
    hex_->setBytes(bytes, offset_);
    addFields(nullptr, layout.fields);
    fields_->expandToDepth(0);
    QString summary = tr("Record at offset %1: %2 bytes").arg(offset_).arg(bytes.size());
    if (layout.blank)
        summary += tr(" — the end-of-file record; the rest of the file is unused.");
    if (!layout.error.empty())
        summary += tr(" — the layout stops: %1").arg(QString::fromStdString(layout.error));
    summary_->setText(summary);
    emit loaded();
}

void RecordView::addFields(QTreeWidgetItem *parent, const std::vector<store::RecordField> &fields)
{
    for (const auto &field : fields) {
        auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(fields_);
        item->setText(0, QString::fromStdString(field.name));
        item->setText(1, field.length > 0 ? QStringLiteral("%1–%2").arg(field.offset).arg(field.offset + field.length - 1)
                                          : QStringLiteral("%1").arg(field.offset));
        item->setText(2, QString::fromStdString(field.value));
        item->setToolTip(2, item->text(2));
        item->setData(0, OffsetRole, static_cast<qlonglong>(field.offset));
        item->setData(0, LengthRole, static_cast<qlonglong>(field.length));
        addFields(item, field.children);
    }
}

void RecordView::onFieldSelected()
{
    const QList<QTreeWidgetItem *> selected = fields_->selectedItems();
    if (selected.isEmpty()) {
        hex_->setHighlight(0, 0);
        return;
    }
    hex_->setHighlight(selected.first()->data(0, OffsetRole).toLongLong(), selected.first()->data(0, LengthRole).toLongLong());
}

void RecordView::onByteClicked(qint64 position)
{
    const std::vector<int> path = store::fieldPathAt(layout_, position);
    if (path.empty())
        return;
    QTreeWidgetItem *item = fields_->topLevelItem(path.front());
    for (size_t i = 1; item && i < path.size(); ++i)
        item = item->child(path[i]);
    if (!item)
        return;
    fields_->setCurrentItem(item);
    fields_->scrollToItem(item);
}

bool RecordView::selectField(const QString &path)
{
    const QStringList parts = path.split(QLatin1Char('/'));
    QTreeWidgetItem *found = nullptr;
    for (int i = 0; i < fields_->topLevelItemCount() && !found; ++i)
        if (fields_->topLevelItem(i)->text(0) == parts.front())
            found = fields_->topLevelItem(i);
    for (int depth = 1; found && depth < parts.size(); ++depth) {
        QTreeWidgetItem *child = nullptr;
        for (int i = 0; i < found->childCount() && !child; ++i)
            if (found->child(i)->text(0) == parts[depth])
                child = found->child(i);
        found = child;
    }
    if (found)
        fields_->setCurrentItem(found);
    return found != nullptr;
}

} // namespace mqdesk::ui
