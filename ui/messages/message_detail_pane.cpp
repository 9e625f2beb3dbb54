#include "ui/messages/message_detail_pane.h"

#include "ui/messages/message_table_model.h"
#include "ui/messages/message_trace_view.h"
#include "ui/widgets/app_fonts.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedLayout>
#include <QStandardItemModel>
#include <QStringDecoder>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {

// Bodies can be megabytes: the viewer shows this much and says so.
constexpr size_t kMaxShownBytes = 256 * 1024;

QString timeText(int64_t millis)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(millis), QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString sysFlagText(int32_t flag)
{
    QStringList parts;
    switch (flag & common::sysflag::kTransactionMask) {
    case common::sysflag::kTransactionPrepared:
        parts << MessageDetailPane::tr("transaction prepared");
        break;
    case common::sysflag::kTransactionCommit:
        parts << MessageDetailPane::tr("transaction commit");
        break;
    case common::sysflag::kTransactionRollback:
        parts << MessageDetailPane::tr("transaction rollback");
        break;
    default:
        break;
    }
    if (flag & common::sysflag::kCompressed)
        parts << MessageDetailPane::tr("compressed");
    if (flag & common::sysflag::kMultiTags)
        parts << MessageDetailPane::tr("multiple tags");
    if (flag & common::sysflag::kBornHostV6)
        parts << MessageDetailPane::tr("born host IPv6");
    if (flag & common::sysflag::kStoreHostV6)
        parts << MessageDetailPane::tr("store host IPv6");
    if (flag & common::sysflag::kInnerBatch)
        parts << MessageDetailPane::tr("inner batch");
    const QString hex = QStringLiteral("0x%1").arg(flag, 0, 16);
    return parts.isEmpty() ? hex : hex + QStringLiteral(" (") + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QTableWidget *makeTable(const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    return table;
}

} // namespace

MessageDetailPane::MessageDetailPane(QWidget *parent) : QWidget(parent)
{
    placeholder_ = new QLabel(tr("Select a message to see its fields, properties and body."), this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);

    fields_ = makeTable({tr("Field"), tr("Value")}, this);
    fields_->setObjectName(QStringLiteral("messageFields"));
    properties_ = makeTable({tr("Property"), tr("Value")}, this);
    properties_->setObjectName(QStringLiteral("messageProperties"));
    properties_->setSortingEnabled(true);

    modeCombo_ = new QComboBox(this);
    modeCombo_->setObjectName(QStringLiteral("bodyMode"));
    modeCombo_->addItem(tr("Text"), static_cast<int>(BodyMode::Text));
    modeCombo_->addItem(tr("JSON"), static_cast<int>(BodyMode::Json));
    modeCombo_->addItem(tr("Hex"), static_cast<int>(BodyMode::Hex));
    encoding_ = new QLabel(this);
    encoding_->setObjectName(QStringLiteral("bodyEncoding"));
    body_ = new QPlainTextEdit(this);
    body_->setObjectName(QStringLiteral("bodyViewer"));
    body_->setReadOnly(true);
    body_->setLineWrapMode(QPlainTextEdit::NoWrap);
    body_->setFont(fixedPitchFont());

    auto *bodyBar = new QHBoxLayout;
    bodyBar->addWidget(new QLabel(tr("Body as"), this));
    bodyBar->addWidget(modeCombo_);
    bodyBar->addWidget(encoding_, 1);
    auto *bodyBox = new QWidget(this);
    auto *bodyLayout = new QVBoxLayout(bodyBox);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addLayout(bodyBar);
    bodyLayout->addWidget(body_, 1);

    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(fields_);
    left->addWidget(properties_);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("detailTabs"));
    tabs_->addTab(bodyBox, tr("Body"));
    trace_ = new MessageTraceView(this);
    tabs_->addTab(trace_, tr("Trace"));
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    content_ = splitter;

    auto *stack = new QStackedLayout(this);
    stack->addWidget(placeholder_);
    stack->addWidget(content_);

    connect(modeCombo_, &QComboBox::currentIndexChanged, this, &MessageDetailPane::renderBody);
    connect(tabs_, &QTabWidget::currentChanged, this, &MessageDetailPane::requestTraceIfShown);
    showMessage(nullptr);
}

QString MessageDetailPane::uniqKey() const
{
    return message_ ? fromStd(message_->properties.get(common::property::kUniqClientMessageId).value_or(""))
                    : QString();
}

void MessageDetailPane::requestTraceIfShown()
{
    if (tabs_->currentWidget() != trace_)
        return;
    const QString msgId = uniqKey();
    if (msgId.isEmpty()) {
        traceRequestedFor_.clear();
        trace_->showNothing(message_ ? tr("This message has no UNIQ_KEY: no client traced it.")
                                     : tr("Select a message to see its trace."));
        return;
    }
    if (msgId == traceRequestedFor_)
        return;
    traceRequestedFor_ = msgId;
    trace_->showLoading(msgId);
    emit traceRequested(msgId);
}

void MessageDetailPane::addField(const QString &label, const QString &value)
{
    const int row = fields_->rowCount();
    fields_->insertRow(row);
    fields_->setItem(row, 0, new QTableWidgetItem(label));
    auto *item = new QTableWidgetItem(value);
    item->setToolTip(value);
    fields_->setItem(row, 1, item);
}

void MessageDetailPane::showMessage(const common::StoredMessage *message)
{
    auto *stack = static_cast<QStackedLayout *>(layout());
    fields_->setRowCount(0);
    properties_->setSortingEnabled(false);
    properties_->setRowCount(0);
    traceRequestedFor_.clear(); // a message shown again reads its trace again: consumers add to it
    if (!message) {
        message_.reset();
        stack->setCurrentWidget(placeholder_);
        requestTraceIfShown();
        return;
    }
    message_ = *message;
    const common::StoredMessage &m = *message_;
    const QLocale locale;
    addField(tr("Topic"), QString::fromStdString(m.topic));
    addField(tr("Queue"), QString::number(m.queueId));
    addField(tr("Queue offset"), QString::number(m.queueOffset));
    addField(tr("Commit-log offset"), QString::number(m.physicalOffset));
    addField(tr("Message ID (offset)"), MessageTableModel::offsetMsgId(m));
    addField(tr("Message ID (UNIQ_KEY)"), fromStd(m.properties.get(common::property::kUniqClientMessageId).value_or("")));
    addField(tr("Tags"), QString::fromStdString(m.tags()));
    addField(tr("Keys"), MessageTableModel::keysText(m));
    addField(tr("Born host"), QString::fromStdString(m.bornHost.toString()));
    addField(tr("Born time"), timeText(m.bornTimestamp));
    addField(tr("Store host"), QString::fromStdString(m.storeHost.toString()));
    addField(tr("Store time"), timeText(m.storeTimestamp));
    addField(tr("Sysflag"), sysFlagText(m.sysFlag));
    addField(tr("Flag"), QString::number(m.flag));
    addField(tr("Reconsume times"), QString::number(m.reconsumeTimes));
    addField(tr("Prepared transaction offset"), QString::number(m.preparedTransactionOffset));
    addField(tr("Body CRC"), QStringLiteral("0x%1").arg(static_cast<quint32>(m.bodyCrc), 8, 16, QLatin1Char('0')));
    addField(tr("Record size"), tr("%1 bytes").arg(locale.toString(m.totalSize)));
    fields_->resizeColumnToContents(0);

    for (const auto &[key, value] : m.properties) {
        const int row = properties_->rowCount();
        properties_->insertRow(row);
        properties_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(key)));
        properties_->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(value)));
    }
    properties_->setSortingEnabled(true);
    properties_->sortByColumn(0, Qt::AscendingOrder);
    properties_->resizeColumnToContents(0);

    // What the body is: UTF-8 text or not, and JSON when it parses.
    const QByteArray bytes(reinterpret_cast<const char *>(m.body.data()), static_cast<qsizetype>(m.body.size()));
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    text_ = decoder.decode(bytes);
    utf8_ = !decoder.hasError();
    prettyJson_.clear();
    QJsonParseError error{};
    const QJsonDocument json = QJsonDocument::fromJson(bytes, &error);
    if (utf8_ && error.error == QJsonParseError::NoError && !json.isNull())
        prettyJson_ = QString::fromUtf8(json.toJson(QJsonDocument::Indented)).trimmed();
    if (!utf8_)
        text_.clear();

    auto *modes = qobject_cast<QStandardItemModel *>(modeCombo_->model());
    modes->item(0)->setEnabled(utf8_);
    modes->item(1)->setEnabled(!prettyJson_.isEmpty());
    QString encoding;
    if (m.body.empty())
        encoding = tr("Empty body");
    else if (!prettyJson_.isEmpty())
        encoding = tr("JSON, UTF-8 · %1 bytes").arg(locale.toString(static_cast<qint64>(m.body.size())));
    else if (utf8_)
        encoding = tr("UTF-8 text · %1 bytes").arg(locale.toString(static_cast<qint64>(m.body.size())));
    else
        encoding = tr("Binary (not valid UTF-8) · %1 bytes").arg(locale.toString(static_cast<qint64>(m.body.size())));
    if (m.sysFlag & common::sysflag::kCompressed)
        encoding += tr(" · compressed by the producer");
    if (m.body.size() > kMaxShownBytes)
        encoding += tr(" · first %1 bytes shown").arg(locale.toString(static_cast<qint64>(kMaxShownBytes)));
    encoding_->setText(encoding);

    // The best mode for this body; renderBody() runs when the index changes.
    const BodyMode best = !prettyJson_.isEmpty() ? BodyMode::Json : utf8_ ? BodyMode::Text : BodyMode::Hex;
    const int wanted = modeCombo_->findData(static_cast<int>(best));
    if (modeCombo_->currentIndex() == wanted)
        renderBody();
    else
        modeCombo_->setCurrentIndex(wanted);
    stack->setCurrentWidget(content_);
    requestTraceIfShown();
}

void MessageDetailPane::setBodyMode(BodyMode mode)
{
    modeCombo_->setCurrentIndex(modeCombo_->findData(static_cast<int>(mode)));
}

MessageDetailPane::BodyMode MessageDetailPane::bodyMode() const
{
    return static_cast<BodyMode>(modeCombo_->currentData().toInt());
}

bool MessageDetailPane::isBodyModeAvailable(BodyMode mode) const
{
    switch (mode) {
    case BodyMode::Text:
        return utf8_;
    case BodyMode::Json:
        return !prettyJson_.isEmpty();
    case BodyMode::Hex:
        return true;
    }
    return false;
}

void MessageDetailPane::renderBody()
{
    if (!message_) {
        body_->clear();
        return;
    }
    const BodyMode mode = bodyMode();
    QString shown;
    if (mode == BodyMode::Hex)
        shown = hexDump(message_->body, kMaxShownBytes);
    else if (mode == BodyMode::Json && !prettyJson_.isEmpty())
        shown = prettyJson_.left(static_cast<qsizetype>(kMaxShownBytes));
    else if (mode == BodyMode::Text && utf8_)
        shown = text_.left(static_cast<qsizetype>(kMaxShownBytes));
    else if (mode == BodyMode::Json)
        shown = tr("The body is not JSON. Choose Text or Hex.");
    else
        shown = tr("The body is not valid UTF-8 text. Choose Hex.");
    body_->setPlainText(shown);
}

QString MessageDetailPane::hexDump(const std::vector<uint8_t> &body, size_t maxBytes)
{
    const size_t size = std::min(body.size(), maxBytes);
    QString out;
    out.reserve(static_cast<qsizetype>(size / 16 + 1) * 78);
    for (size_t line = 0; line < size; line += 16) {
        out += QStringLiteral("%1  ").arg(line, 8, 16, QLatin1Char('0'));
        QString ascii;
        for (size_t i = line; i < line + 16; ++i) {
            if (i < size) {
                out += QStringLiteral("%1 ").arg(body[i], 2, 16, QLatin1Char('0'));
                ascii += body[i] >= 0x20 && body[i] < 0x7f ? QChar(static_cast<char16_t>(body[i])) : QChar(QLatin1Char('.'));
            } else {
                out += QStringLiteral("   ");
            }
            if (i == line + 7)
                out += QLatin1Char(' ');
        }
        out += QLatin1String(" |") + ascii + QLatin1String("|\n");
    }
    return out;
}

QString MessageDetailPane::fieldText(const QString &label) const
{
    for (int row = 0; row < fields_->rowCount(); ++row)
        if (fields_->item(row, 0)->text() == label)
            return fields_->item(row, 1)->text();
    return {};
}

QString MessageDetailPane::bodyText() const
{
    return body_->toPlainText();
}

QString MessageDetailPane::encodingText() const
{
    return encoding_->text();
}

} // namespace mqdesk::ui
