#include "test_support.h"

QObject *createRecordCodecTest();
QObject *createCommonPartsTest();

MQDESK_TEST_MAIN(createRecordCodecTest(), createCommonPartsTest())
