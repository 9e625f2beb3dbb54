#include "test_support.h"

QObject *createGrpcAccessControlTest();
QObject *createReceiptRenewalsTest();

MQDESK_TEST_MAIN(createGrpcAccessControlTest(), createReceiptRenewalsTest())
