#include "ui/explorer/config_files_view.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"
#include "ui/widgets/app_fonts.h"

#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace mqdesk::ui {

namespace {

constexpr int kFileIndexRole = Qt::UserRole + 1; // the row's index in Snapshot::files

// Characters of `text` before its byte `byteOffset` (the error offsets count UTF-8 bytes).
int characterPosition(const std::string &text, qint64 byteOffset)
{
    const auto bytes = static_cast<qsizetype>(std::clamp<qint64>(byteOffset, 0, static_cast<qint64>(text.size())));
    return static_cast<int>(QString::fromUtf8(text.data(), bytes).size());
}

} // namespace

ConfigFilesView::ConfigFilesView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), reader_(std::move(reader))
{
    scan_ = new BackgroundScan(this);
    banner_ = makeBanner(this);
    const auto report = [this](const QString &outcome) { showBanner(banner_, outcome, false); };
    files_ = new QStandardItemModel(0, 3, this);
    files_->setHorizontalHeaderLabels({tr("File"), tr("Size"), tr("Status")});
    fileTable_ = makeExplorerTable(files_, tr("config-files.csv"), report, this);
    fileTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(fileTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showFile(current.row()); });

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(fileTable_);
    splitter->addWidget(buildDetail());
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({340, 760}); // the file list wide enough for a name, size and status

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(banner_);
    layout->addWidget(splitter, 1);
    reload();
}

QWidget *ConfigFilesView::buildDetail()
{
    auto *detail = new QWidget(this);
    note_ = new QLabel(detail);
    note_->setWordWrap(true);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    contentTable_ = makeExplorerTable(nullptr, tr("config.csv"), [this](const QString &outcome) {
        showBanner(banner_, outcome, false);
    }, detail);
    contentTree_ = new QTreeView(detail);
    contentTree_->setAlternatingRowColors(true);
    contentTree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    noContent_ = new QLabel(detail);
    noContent_->setAlignment(Qt::AlignCenter);
    noContent_->setWordWrap(true);
    contentStack_ = new QStackedWidget(detail);
    contentStack_->addWidget(contentTable_);
    contentStack_->addWidget(contentTree_);
    contentStack_->addWidget(noContent_);

    auto *rawPage = new QWidget(detail);
    rawError_ = new QLabel(rawPage);
    rawError_->setWordWrap(true);
    rawError_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rawError_->setStyleSheet(QStringLiteral("color: #c62828;"));
    raw_ = new QPlainTextEdit(rawPage);
    raw_->setReadOnly(true);
    raw_->setLineWrapMode(QPlainTextEdit::NoWrap);
    raw_->setFont(fixedPitchFont());
    auto *rawLayout = new QVBoxLayout(rawPage);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    rawLayout->addWidget(rawError_);
    rawLayout->addWidget(raw_, 1);

    tabs_ = new QTabWidget(detail);
    tabs_->addTab(contentStack_, tr("Table"));
    tabs_->addTab(rawPage, tr("Raw text"));
    auto *layout = new QVBoxLayout(detail);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(note_);
    layout->addWidget(tabs_, 1);
    return detail;
}

bool ConfigFilesView::isLoading() const { return scan_->isRunning(); }
QString ConfigFilesView::rawErrorText() const { return rawError_->isHidden() ? QString() : rawError_->text(); }
QString ConfigFilesView::noteText() const { return note_->text(); }
QString ConfigFilesView::bannerText() const { return banner_->isHidden() ? QString() : banner_->text(); }

void ConfigFilesView::reload()
{
    scan_->start([reader = reader_](const store::ScanProgress &) {
        Snapshot snapshot;
        snapshot.files = reader->configFiles();
        for (const auto &file : snapshot.files)
            if (file.parsed && file.manager)
                snapshot.maxOffsets[file.name] = readQueueMaxOffsets(*reader, file);
        return snapshot;
    }, [this](Snapshot snapshot) {
        showSnapshot(std::move(snapshot));
        emit loaded();
    });
}

void ConfigFilesView::showSnapshot(Snapshot snapshot)
{
    const QString previous = selectedFile();
    snapshot_ = std::move(snapshot);
    files_->removeRows(0, files_->rowCount());
    for (size_t i = 0; i < snapshot_.files.size(); ++i) {
        const store::ConfigFileContent &file = snapshot_.files[i];
        auto *name = textItem(qtText(file.name));
        name->setData(static_cast<int>(i), kFileIndexRole);
        auto *status = textItem(file.parsed               ? tr("ok")
                                : !file.error.empty()     ? tr("does not parse")
                                : file.text.find_first_not_of(" \t\r\n") == std::string::npos ? tr("empty")
                                                                                           : tr("text only"));
        if (!file.error.empty()) {
            status->setToolTip(qtText(file.error));
            status->setForeground(QColor(0xc6, 0x28, 0x28));
        }
        files_->appendRow({name, numberItem(file.size), status});
    }
    fileTable_->resizeColumnsToContents();
    if (snapshot_.files.empty()) {
        showBanner(banner_, tr("No config files: %1/config holds none.").arg(qtText(reader_->rootDir())), false);
        showFile(-1);
        return;
    }
    showBanner(banner_, QString(), false);
    if (!selectFile(previous))
        fileTable_->selectRow(0);
    showFile(fileTable_->currentIndex().row()); // the same row as before holds new content
}

bool ConfigFilesView::selectFile(const QString &name)
{
    if (name.isEmpty())
        return false;
    const auto found = files_->findItems(name, Qt::MatchExactly, NameColumn);
    if (found.isEmpty())
        return false;
    fileTable_->selectRow(found.first()->row());
    fileTable_->setCurrentIndex(files_->index(found.first()->row(), NameColumn));
    return true;
}

QString ConfigFilesView::selectedFile() const
{
    const QModelIndex current = fileTable_->currentIndex();
    return current.isValid() ? files_->item(current.row(), NameColumn)->text() : QString();
}

bool ConfigFilesView::showLocation(const StoreLocation &location)
{
    static const QString prefix = QStringLiteral("config/");
    if (!location.file.startsWith(prefix) || !selectFile(location.file.mid(prefix.size())))
        return false;
    if (location.offset > 0) {
        tabs_->setCurrentIndex(RawTab);
        moveRawCursorToByte(location.offset);
    }
    return true;
}

void ConfigFilesView::showFile(int row)
{
    QStandardItemModel *old = content_;
    content_ = nullptr;
    if (row < 0 || row >= files_->rowCount()) {
        note_->clear();
        noContent_->setText(tr("No config file selected."));
        contentStack_->setCurrentWidget(noContent_);
        raw_->clear();
        rawError_->hide();
        delete old;
        return;
    }
    const auto &file = snapshot_.files[files_->item(row, NameColumn)->data(kFileIndexRole).toInt()];
    QString note;
    const auto offsets = snapshot_.maxOffsets.find(file.name);
    const auto [model, kind] = buildConfigModel(file, offsets == snapshot_.maxOffsets.end() ? QueueMaxOffsets{}
                                                                                              : offsets->second,
                                                &note, this);
    content_ = model;
    note_->setText(note);
    note_->setVisible(!note.isEmpty());
    if (kind == ConfigTableKind::Table) {
        contentTable_->setModel(model);
        contentTable_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // file order first
        contentTable_->resizeColumnsToContents();
        contentStack_->setCurrentWidget(contentTable_);
    } else if (kind == ConfigTableKind::Tree) {
        contentTree_->setModel(model);
        contentTree_->expandToDepth(1);
        contentTree_->resizeColumnToContents(0);
        contentStack_->setCurrentWidget(contentTree_);
    } else {
        noContent_->setText(file.error.empty() ? tr("%1 holds no JSON or properties to tabulate: see Raw text.")
                                                     .arg(qtText(file.name))
                                               : tr("%1 does not parse: %2\nThe raw text shows where.")
                                                     .arg(qtText(file.name), qtText(file.error)));
        contentStack_->setCurrentWidget(noContent_);
    }
    delete old;
    showRawText(file);
}

void ConfigFilesView::showRawText(const store::ConfigFileContent &file)
{
    raw_->setExtraSelections({});
    if (file.format == store::ConfigFormat::Binary)
        raw_->setPlainText(tr("(binary file, %n byte(s))", nullptr, static_cast<int>(file.size)));
    else
        raw_->setPlainText(QString::fromUtf8(file.text.data(), static_cast<qsizetype>(file.text.size())));
    rawError_->setText(qtText(file.error));
    rawError_->setVisible(!file.error.empty());
    if (file.errorOffset < 0)
        return;
    // The line holding the error tinted, the character at it marked strongly.
    const int position = characterPosition(file.text, file.errorOffset);
    QTextCursor at(raw_->document());
    at.setPosition(std::min(position, raw_->document()->characterCount() - 1));
    QTextEdit::ExtraSelection line;
    line.format.setBackground(QColor(255, 235, 238));
    line.format.setProperty(QTextFormat::FullWidthSelection, true);
    line.cursor = at;
    line.cursor.clearSelection();
    QTextEdit::ExtraSelection character;
    character.format.setBackground(QColor(229, 57, 53));
    character.format.setForeground(Qt::white);
    character.cursor = at;
    character.cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
    raw_->setExtraSelections({line, character});
    raw_->setTextCursor(at);
    raw_->ensureCursorVisible();
}

void ConfigFilesView::moveRawCursorToByte(qint64 byteOffset)
{
    const int row = fileTable_->currentIndex().row();
    if (row < 0)
        return;
    const auto &file = snapshot_.files[files_->item(row, NameColumn)->data(kFileIndexRole).toInt()];
    QTextCursor cursor(raw_->document());
    cursor.setPosition(std::min(characterPosition(file.text, byteOffset), raw_->document()->characterCount() - 1));
    raw_->setTextCursor(cursor);
    raw_->ensureCursorVisible();
}

} // namespace mqdesk::ui
