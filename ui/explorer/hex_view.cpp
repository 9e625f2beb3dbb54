#include "ui/explorer/hex_view.h"

#include "ui/widgets/app_fonts.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

namespace mqdesk::ui {

namespace {
constexpr int kOffsetDigits = 12; // commit-log offsets up to 2^48 - 1 (256 TB) in hex
constexpr int kMargin = 4;
} // namespace

HexView::HexView(QWidget *parent) : QAbstractScrollArea(parent)
{
    setFont(fixedPitchFont());
    setFocusPolicy(Qt::StrongFocus);
    horizontalScrollBar()->setSingleStep(charWidth());
}

void HexView::setBytes(const QByteArray &bytes, qint64 baseOffset)
{
    bytes_ = bytes;
    baseOffset_ = baseOffset;
    highlightPosition_ = 0;
    highlightLength_ = 0;
    updateScrollBars();
    verticalScrollBar()->setValue(0);
    viewport()->update();
}

void HexView::setHighlight(qint64 position, qint64 length)
{
    highlightPosition_ = position;
    highlightLength_ = length;
    if (length > 0) {
        const qint64 row = position / kBytesPerRow;
        QScrollBar *bar = verticalScrollBar();
        const int visibleRows = viewport()->height() / lineHeight();
        if (row < bar->value() || row >= bar->value() + visibleRows)
            bar->setValue(static_cast<int>(row));
    }
    viewport()->update();
}

QSize HexView::sizeHint() const
{
    const int width = asciiColumnX() + (kBytesPerRow + 1) * charWidth() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    return {width, 16 * lineHeight()};
}

int HexView::lineHeight() const { return fontMetrics().height(); }
int HexView::charWidth() const { return fontMetrics().horizontalAdvance(QLatin1Char('0')); }
int HexView::hexColumnX() const { return kMargin + (kOffsetDigits + 2) * charWidth(); }
int HexView::asciiColumnX() const { return hexColumnX() + (kBytesPerRow * 3 + 2) * charWidth(); }

void HexView::updateScrollBars()
{
    const int visibleRows = qMax(1, viewport()->height() / lineHeight());
    // Rows are the scroll unit: a 4 MiB record has 262,144 rows, well within an int.
    verticalScrollBar()->setRange(0, static_cast<int>(qMax<qint64>(0, rowCount() - visibleRows)));
    verticalScrollBar()->setPageStep(visibleRows);
    const int contentWidth = asciiColumnX() + (kBytesPerRow + 1) * charWidth();
    horizontalScrollBar()->setRange(0, qMax(0, contentWidth - viewport()->width()));
    horizontalScrollBar()->setPageStep(viewport()->width());
}

void HexView::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

QRect HexView::hexCellRect(qint64 position) const
{
    const qint64 row = position / kBytesPerRow - verticalScrollBar()->value();
    const int column = static_cast<int>(position % kBytesPerRow);
    const int x = hexColumnX() + column * 3 * charWidth() - horizontalScrollBar()->value();
    return QRect(x, static_cast<int>(row) * lineHeight(), 2 * charWidth(), lineHeight());
}

qint64 HexView::positionAt(const QPoint &point) const
{
    const int x = point.x() + horizontalScrollBar()->value();
    const qint64 row = verticalScrollBar()->value() + point.y() / lineHeight();
    int column = -1;
    if (x >= hexColumnX() && x < hexColumnX() + kBytesPerRow * 3 * charWidth())
        column = (x - hexColumnX()) / (3 * charWidth());
    else if (x >= asciiColumnX() && x < asciiColumnX() + kBytesPerRow * charWidth())
        column = (x - asciiColumnX()) / charWidth();
    const qint64 position = row * kBytesPerRow + column;
    return column < 0 || position >= bytes_.size() ? -1 : position;
}

void HexView::mousePressEvent(QMouseEvent *event)
{
    const qint64 position = positionAt(event->position().toPoint());
    if (position >= 0)
        emit byteClicked(position);
    QAbstractScrollArea::mousePressEvent(event);
}

QString HexView::highlightedHex() const
{
    return QString::fromLatin1(bytes_.mid(highlightPosition_, highlightLength_).toHex(' ').toUpper());
}

void HexView::keyPressEvent(QKeyEvent *event)
{
    if (event->matches(QKeySequence::Copy) && highlightLength_ > 0) {
        QGuiApplication::clipboard()->setText(highlightedHex());
        return;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void HexView::paintEvent(QPaintEvent *)
{
    QPainter painter(viewport());
    painter.fillRect(viewport()->rect(), palette().base());
    painter.translate(-horizontalScrollBar()->value(), 0);
    const int height = lineHeight();
    const int width = charWidth();
    const int ascent = fontMetrics().ascent();
    const qint64 firstRow = verticalScrollBar()->value();
    const qint64 lastRow = qMin(rowCount(), firstRow + viewport()->height() / height + 1);
    const QColor highlight = palette().color(QPalette::Highlight);
    const QColor highlightText = palette().color(QPalette::HighlightedText);
    const QColor text = palette().color(QPalette::Text);
    const QColor dim = palette().color(QPalette::PlaceholderText);
    for (qint64 row = firstRow; row < lastRow; ++row) {
        const int y = static_cast<int>(row - firstRow) * height;
        painter.setPen(dim);
        painter.drawText(kMargin, y + ascent,
                         QStringLiteral("%1").arg(baseOffset_ + row * kBytesPerRow, kOffsetDigits, 16, QLatin1Char('0')).toUpper());
        for (int column = 0; column < kBytesPerRow; ++column) {
            const qint64 position = row * kBytesPerRow + column;
            if (position >= bytes_.size())
                break;
            const auto byte = static_cast<uchar>(bytes_.at(position));
            const bool selected = position >= highlightPosition_ && position < highlightPosition_ + highlightLength_;
            const int hexX = hexColumnX() + column * 3 * width;
            const int asciiX = asciiColumnX() + column * width;
            if (selected) {
                // The gap after a byte is filled too when the next byte is selected, so a field reads as one block.
                const bool nextSelected = position + 1 < highlightPosition_ + highlightLength_ && column + 1 < kBytesPerRow;
                painter.fillRect(QRect(hexX, y, (nextSelected ? 3 : 2) * width, height), highlight);
                painter.fillRect(QRect(asciiX, y, width, height), highlight);
            }
            painter.setPen(selected ? highlightText : text);
            painter.drawText(hexX, y + ascent, QStringLiteral("%1").arg(byte, 2, 16, QLatin1Char('0')).toUpper());
            const QChar ascii = byte >= 0x20 && byte < 0x7F ? QChar(static_cast<char16_t>(byte)) : QLatin1Char('.');
            painter.drawText(asciiX, y + ascent, QString(ascii));
        }
    }
}

} // namespace mqdesk::ui
