#include "test_support.h"

QObject *createRouteDataTest();

MQDESK_TEST_MAIN(createRouteDataTest())
