#include "test_support.h"

QObject *createSendPullTest();
QObject *createAdminTest();
QObject *createRetryDelayTest();

MQDESK_TEST_MAIN(createSendPullTest(), createAdminTest(), createRetryDelayTest())
