#include "test_support.h"

QObject *createRecordCodecTest();
QObject *createCommonPartsTest();
QObject *createJsonTest();
QObject *createFuzzFindingsTest();

MQDESK_TEST_MAIN(createRecordCodecTest(), createCommonPartsTest(), createJsonTest(), createFuzzFindingsTest())
