#include "test_support.h"

QObject *createRecordCodecTest();
QObject *createCommonPartsTest();
QObject *createJsonTest();

MQDESK_TEST_MAIN(createRecordCodecTest(), createCommonPartsTest(), createJsonTest())
