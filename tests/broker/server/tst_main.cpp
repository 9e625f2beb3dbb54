#include "test_support.h"

QObject *createSendPullTest();
QObject *createAdminTest();

MQDESK_TEST_MAIN(createSendPullTest(), createAdminTest())
