#include "test_support.h"

QObject *createSqlFilterTest();
QObject *createSqlFilterErrorsTest();

MQDESK_TEST_MAIN(createSqlFilterTest(), createSqlFilterErrorsTest())
