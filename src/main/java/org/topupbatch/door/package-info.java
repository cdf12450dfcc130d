/**
 * The HTTP door for ERPs (routes/http-intake.yaml, README "The HTTP door for ERPs"): a batch posted
 * on the management port goes into the inbox and through the same intake as a dropped file.
 */
package org.topupbatch.door;
