#include "test_support.h"

QObject *createGrpcAccessControlTest();
QObject *createReceiptRenewalsTest();
QObject *createGrpcEndpointTest();
QObject *createGrpcEndpointAuthTest();
QObject *createHttp2InspectorTest();

MQDESK_TEST_MAIN(createGrpcAccessControlTest(), createReceiptRenewalsTest(), createGrpcEndpointTest(),
                 createGrpcEndpointAuthTest(), createHttp2InspectorTest())
