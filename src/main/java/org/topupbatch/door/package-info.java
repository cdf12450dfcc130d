/**
 * The HTTP door for ERPs (routes/http-intake.yaml, docs/erp-doors.md#the-http-door-for-erps): a batch posted
 * on the management port goes into the inbox and through the same intake as a dropped file.
 */
package org.topupbatch.door;
