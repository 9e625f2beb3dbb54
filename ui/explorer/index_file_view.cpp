#include "ui/explorer/index_file_view.h"

#include "broker/store/index_file.h"
#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"
#include "ui/explorer/index_entry_model.h"
#include "ui/explorer/index_occupancy_chart.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace mqdesk::ui {

namespace {

constexpr int kChartBuckets = 150;
constexpr int kSummaryIndexRole = Qt::UserRole + 2; // file rows: the index in summaries_

// Entries an index file holds: 1 .. indexCount − 1, within its inferred capacity.
int32_t entryCountOf(const store::IndexFileSummary &summary)
{
    if (summary.indexNum <= 0)
        return 0;
    return std::min(std::max(summary.header.indexCount, 1), summary.indexNum) - 1;
}

QString timeAndMillis(qint64 millis)
{
    return QStringLiteral("%1  (%2 ms)").arg(localTimeText(millis)).arg(millis);
}

} // namespace

IndexFileView::IndexFileView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), reader_(std::move(reader))
{
    listScan_ = new BackgroundScan(this);
    chartScan_ = new BackgroundScan(this);
    lookupScan_ = new BackgroundScan(this);
    locateScan_ = new BackgroundScan(this);
    banner_ = makeBanner(this);
    const auto report = [this](const QString &outcome) { showBanner(banner_, outcome, false); };

    files_ = new QStandardItemModel(0, 5, this);
    files_->setHorizontalHeaderLabels({tr("Index file"), tr("Size"), tr("Index count"), tr("Begin"), tr("End")});
    fileTable_ = makeExplorerTable(files_, tr("index-files.csv"), report, this);
    fileTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(fileTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showFile(current.row()); });

    chart_ = new IndexOccupancyChart(this);
    chartNote_ = new QLabel(this);
    auto *chartPage = new QWidget(this);
    auto *chartLayout = new QVBoxLayout(chartPage);
    chartLayout->addWidget(chartNote_);
    chartLayout->addWidget(chart_, 1);

    entries_ = new IndexEntryModel(reader_, this);
    entryTable_ = makeExplorerTable(entries_, tr("index-entries.csv"), report, this);
    entryTable_->setSortingEnabled(false); // lazily read: sorting would only sort the rows read so far
    connect(entryTable_, &QTableView::activated, this,
            [this](const QModelIndex &index) { requestRecord(entries_->entry(index.row()).phyOffset); });

    tabs_ = new QTabWidget(this);
    tabs_->addTab(chartPage, tr("Slot occupancy"));
    tabs_->addTab(entryTable_, tr("Entries"));
    tabs_->addTab(buildLookupPanel(), tr("Key lookup"));

    auto *top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(fileTable_);
    top->addWidget(buildHeaderPanel());
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    top->setSizes({560, 540}); // the header's values hold a date-time and its milliseconds
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(banner_);
    layout->addWidget(splitter, 1);
    reload();
}

QWidget *IndexFileView::buildHeaderPanel()
{
    auto *box = new QGroupBox(tr("Header"), this);
    auto *form = new QFormLayout(box);
    for (const QString &label : {tr("Begin store time"), tr("End store time"), tr("Begin commit-log offset"),
                                 tr("End commit-log offset"), tr("Hash slot count"), tr("Index count"),
                                 tr("Slot capacity (inferred)"), tr("Entry capacity (inferred)"), tr("Layout")}) {
        auto *value = new QLabel(box);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        form->addRow(label + QLatin1Char(':'), value);
        headerFields_.emplace_back(label, value);
    }
    return box;
}

QWidget *IndexFileView::buildLookupPanel()
{
    auto *panel = new QWidget(this);
    topicEdit_ = new QLineEdit(panel);
    topicEdit_->setPlaceholderText(tr("Topic"));
    keyEdit_ = new QLineEdit(panel);
    keyEdit_->setPlaceholderText(tr("Key (a KEYS token or a UNIQ_KEY)"));
    lookupButton_ = new QPushButton(tr("Look up"), panel);
    connect(lookupButton_, &QPushButton::clicked, this, [this] { lookUp(topicEdit_->text(), keyEdit_->text()); });
    connect(keyEdit_, &QLineEdit::returnPressed, lookupButton_, &QPushButton::click);
    lookupSummary_ = new QLabel(tr("The lookup walks topic#key's hash chain in every index file, newest first, "
                                   "as the broker does."),
                                panel);
    lookupSummary_->setWordWrap(true);
    lookupSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    chain_ = new QStandardItemModel(0, 11, this);
    chain_->setHorizontalHeaderLabels({tr("Index file"), tr("Step"), tr("Entry"), tr("Position"), tr("Key hash"),
                                       tr("Commit-log offset"), tr("Stored at"), tr("Prev"), tr("Hash match"),
                                       tr("Record has key"), tr("Note")});
    chainTable_ = makeExplorerTable(chain_, tr("index-lookup.csv"), [this](const QString &outcome) {
        showBanner(banner_, outcome, false);
    }, panel);
    chainTable_->setSortingEnabled(false); // the rows are the walk, in order
    connect(chainTable_, &QTableView::activated, this, [this](const QModelIndex &index) {
        const qint64 offset = chain_->item(index.row(), ChainFileColumn)->data(kPhyOffsetRole).toLongLong();
        if (offset >= 0)
            requestRecord(offset);
    });

    auto *inputs = new QHBoxLayout;
    inputs->addWidget(topicEdit_, 1);
    inputs->addWidget(keyEdit_, 2);
    inputs->addWidget(lookupButton_);
    auto *layout = new QVBoxLayout(panel);
    layout->addLayout(inputs);
    layout->addWidget(lookupSummary_);
    layout->addWidget(chainTable_, 1);
    return panel;
}

bool IndexFileView::isLoading() const { return listScan_->isRunning(); }
QString IndexFileView::bannerText() const { return banner_->isHidden() ? QString() : banner_->text(); }
QString IndexFileView::lookupSummary() const { return lookupSummary_->text(); }

QString IndexFileView::headerText() const
{
    QStringList lines;
    for (const auto &[label, value] : headerFields_)
        lines << label + QStringLiteral(": ") + value->text();
    return lines.join(QLatin1Char('\n'));
}

QString IndexFileView::selectedFile() const
{
    const QModelIndex current = fileTable_->currentIndex();
    return current.isValid() ? files_->item(current.row(), NameColumn)->text() : QString();
}

void IndexFileView::reload()
{
    listScan_->start([reader = reader_](const store::ScanProgress &) { return reader->indexFiles(); },
                     [this](std::vector<store::IndexFileSummary> files) {
                         showFiles(std::move(files));
                         emit loaded();
                     });
}

void IndexFileView::showFiles(std::vector<store::IndexFileSummary> files)
{
    const QString previous = selectedFile();
    summaries_ = std::move(files);
    files_->removeRows(0, files_->rowCount());
    for (size_t i = 0; i < summaries_.size(); ++i) {
        const store::IndexFileSummary &s = summaries_[i];
        auto *name = textItem(qtText(s.file.name));
        name->setData(static_cast<int>(i), kSummaryIndexRole);
        files_->appendRow({name, numberItem(s.file.size), numberItem(s.header.indexCount),
                           textItem(localTimeText(s.header.beginTimestamp)),
                           textItem(localTimeText(s.header.endTimestamp))});
    }
    fileTable_->resizeColumnsToContents();
    if (summaries_.empty()) {
        showBanner(banner_, tr("No index files: %1/index holds none (the broker writes them only when "
                               "messageIndexEnable is on and a message carries keys).")
                                .arg(qtText(reader_->rootDir())),
                   false);
        showFile(-1);
        return;
    }
    showBanner(banner_, QString(), false);
    if (!selectFile(previous))
        fileTable_->selectRow(static_cast<int>(summaries_.size()) - 1); // the newest
    showFile(fileTable_->currentIndex().row());
}

bool IndexFileView::selectFile(const QString &name)
{
    const auto found = name.isEmpty() ? QList<QStandardItem *>() : files_->findItems(name, Qt::MatchExactly, NameColumn);
    if (found.isEmpty())
        return false;
    fileTable_->selectRow(found.first()->row());
    return true;
}

void IndexFileView::showFile(int row)
{
    const store::IndexFileSummary *summary = nullptr;
    if (row >= 0 && row < files_->rowCount())
        summary = &summaries_[static_cast<size_t>(files_->item(row, NameColumn)->data(kSummaryIndexRole).toInt())];
    showHeader(summary);
    entries_->setFile(summary ? qtText(summary->file.name) : QString(), summary ? entryCountOf(*summary) : 0);
    chart_->clear();
    if (!summary || summary->hashSlotNum <= 0) {
        chartScan_->cancel();
        chartNote_->setText(summary ? tr("No chart: %1").arg(qtText(summary->layoutError)) : QString());
        return;
    }
    chartNote_->setText(tr("Reading %n slot(s)…", nullptr, summary->hashSlotNum));
    const int buckets = std::min(kChartBuckets, summary->hashSlotNum);
    const int64_t slotCount = summary->hashSlotNum;
    chartScan_->start([reader = reader_, name = summary->file.name, buckets](const store::ScanProgress &) {
        return reader->indexSlotOccupancy(name, buckets);
    }, [this, slotCount](const std::vector<int64_t> &occupied) {
        chart_->setOccupancy(occupied, slotCount);
        const QLocale locale;
        chartNote_->setText(tr("%1 of %2 slots occupied (%3%), in %4 buckets of about %5 slots.")
                                .arg(locale.toString(chart_->occupiedSlots()), locale.toString(slotCount),
                                     locale.toString(100.0 * static_cast<double>(chart_->occupiedSlots())
                                                         / static_cast<double>(slotCount), 'f', 1),
                                     locale.toString(chart_->bucketCount()),
                                     locale.toString(slotCount / std::max(chart_->bucketCount(), 1))));
        emit occupancyShown();
    });
}

void IndexFileView::showHeader(const store::IndexFileSummary *s)
{
    if (!s) {
        for (auto &field : headerFields_)
            field.second->clear();
        return;
    }
    const store::IndexHeader &h = s->header;
    const QLocale locale;
    const QStringList values{
        timeAndMillis(h.beginTimestamp), timeAndMillis(h.endTimestamp), QString::number(h.beginPhyOffset),
        QString::number(h.endPhyOffset), locale.toString(h.hashSlotCount),
        tr("%1 (entries 1–%2)").arg(locale.toString(h.indexCount)).arg(locale.toString(entryCountOf(*s))),
        s->hashSlotNum > 0 ? locale.toString(s->hashSlotNum) : tr("unknown"),
        s->indexNum > 0 ? locale.toString(s->indexNum) : tr("unknown"),
        s->layoutError.empty() ? tr("ok (%1 bytes)").arg(locale.toString(s->file.size)) : qtText(s->layoutError)};
    for (size_t i = 0; i < headerFields_.size(); ++i)
        headerFields_[i].second->setText(values[static_cast<qsizetype>(i)]);
}

void IndexFileView::lookUp(const QString &topic, const QString &key)
{
    topicEdit_->setText(topic);
    keyEdit_->setText(key);
    if (topic.isEmpty() || key.isEmpty()) {
        lookupSummary_->setText(tr("Enter a topic and a key: the index stores topic#key."));
        return;
    }
    lookupSummary_->setText(tr("Looking up %1#%2…").arg(topic, key));
    lookupScan_->start([reader = reader_, topic = topic.toStdString(), key = key.toStdString()](
                           const store::ScanProgress &) { return reader->lookupIndexKey(topic, key); },
                       [this](const std::vector<store::IndexKeyLookup> &lookups) {
                           showLookup(lookups);
                           emit lookupFinished();
                       });
}

void IndexFileView::requestRecord(qint64 phyOffset)
{
    locateScan_->start([reader = reader_, phyOffset](const store::ScanProgress &) {
        return commitLogLocation(*reader, reader->commitLogSnapshot(), phyOffset);
    }, [this, phyOffset](const std::optional<StoreLocation> &location) {
        if (location)
            emit locationRequested(*location);
        else
            showBanner(banner_, tr("No commit-log file holds offset %1: the record is gone (deleted by retention "
                                   "or never written).")
                                    .arg(phyOffset),
                       true);
    });
}

void IndexFileView::showLookup(const std::vector<store::IndexKeyLookup> &lookups)
{
    chain_->removeRows(0, chain_->rowCount());
    int hits = 0;
    const auto addRow = [this](const QString &file, const QString &step, QList<QStandardItem *> cells, qint64 phyOffset) {
        auto *fileItem = textItem(file);
        fileItem->setData(phyOffset, kPhyOffsetRole);
        cells.prepend(textItem(step));
        cells.prepend(fileItem);
        while (cells.size() < chain_->columnCount())
            cells << textItem(QString());
        chain_->appendRow(cells);
    };
    for (const store::IndexKeyLookup &lookup : lookups) {
        const QString file = qtText(lookup.file);
        const QString hash = QString::number(lookup.keyHash);
        addRow(file, tr("slot %1").arg(lookup.slot),
               {numberItem(lookup.slotValue), numberItem(lookup.slotPosition), textItem(hash), textItem(QString()),
                textItem(QString()), textItem(QString()), textItem(QString()), textItem(QString()),
                textItem(lookup.slotValue == 0 ? tr("the slot is empty")
                                               : tr("the slot points at entry %1, the newest of its chain")
                                                     .arg(lookup.slotValue))},
               -1);
        int step = 0;
        for (const store::IndexChainStep &s : lookup.chain) {
            const QString hasKey = !s.recordHasKey ? tr("no record there") : *s.recordHasKey ? tr("yes") : tr("no");
            hits += s.recordHasKey.value_or(false) ? 1 : 0;
            addRow(file, tr("step %1").arg(++step),
                   {numberItem(s.entry), numberItem(s.filePosition), numberItem(s.keyHash), numberItem(s.phyOffset),
                    textItem(localTimeText(s.timestamp)), numberItem(s.prev),
                    textItem(s.hashMatches ? tr("yes") : tr("no")), textItem(hasKey),
                    textItem(s.hashMatches ? QString() : tr("another key with the same slot"))},
                   s.phyOffset);
        }
        addRow(file, tr("stop"), {textItem(QString()), textItem(QString()), textItem(QString()), textItem(QString()),
                                  textItem(QString()), textItem(QString()), textItem(QString()), textItem(QString()),
                                  textItem(qtText(lookup.stopReason))},
               -1);
    }
    chainTable_->resizeColumnsToContents();
    if (lookups.empty())
        lookupSummary_->setText(tr("No index files to look in."));
    else
        lookupSummary_->setText(tr("%1 (hash %2): %n record(s) carry the key, in %3 index file(s). Double-click a "
                                   "step to see its record.", nullptr, hits)
                                    .arg(qtText(lookups.front().indexKey))
                                    .arg(lookups.front().keyHash)
                                    .arg(lookups.size()));
    tabs_->setCurrentIndex(LookupTab);
}

bool IndexFileView::showLocation(const StoreLocation &location)
{
    static const QString prefix = QStringLiteral("index/");
    if (!location.file.startsWith(prefix) || !selectFile(location.file.mid(prefix.size())))
        return false;
    const int row = fileTable_->currentIndex().row();
    const auto &summary = summaries_[static_cast<size_t>(files_->item(row, NameColumn)->data(kSummaryIndexRole).toInt())];
    const qint64 entriesStart = store::IndexFile::kHeaderSize + qint64{summary.hashSlotNum} * store::IndexFile::kHashSlotSize;
    if (summary.hashSlotNum <= 0 || location.offset < entriesStart)
        return true; // the header or the slot table: the file is shown
    const auto entry = static_cast<int32_t>((location.offset - entriesStart) / store::IndexFile::kIndexSize);
    if (entry < 1 || entry > entries_->entryCount())
        return true;
    tabs_->setCurrentIndex(EntriesTab);
    auto select = std::make_shared<QMetaObject::Connection>();
    *select = connect(entries_, &IndexEntryModel::fetched, this, [this, select, entry] {
        disconnect(*select);
        if (entry <= entries_->rowCount()) {
            entryTable_->selectRow(entry - 1);
            entryTable_->scrollTo(entries_->index(entry - 1, 0));
        }
    });
    entries_->fetchUntil(entry);
    return true;
}

} // namespace mqdesk::ui
