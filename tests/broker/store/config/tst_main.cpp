#include "test_support.h"

QObject *createJavaFixturesTest();
QObject *createConfigFileTest();
QObject *createConfigManagersTest();

MQDESK_TEST_MAIN(createJavaFixturesTest(), createConfigFileTest(), createConfigManagersTest())
