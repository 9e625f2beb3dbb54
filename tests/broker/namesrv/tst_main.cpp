#include "test_support.h"

QObject *createRouteDataTest();
QObject *createRouteInfoManagerTest();
QObject *createNamesrvControllerTest();

MQDESK_TEST_MAIN(createRouteDataTest(), createRouteInfoManagerTest(), createNamesrvControllerTest())
