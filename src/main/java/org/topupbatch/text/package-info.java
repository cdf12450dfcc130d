/**
 * Text as people see it on one line: values from files and answers shown in the plan, the log and
 * status without their line breaks, control characters or endless length. The bottom of the house:
 * every room may use it, it uses none.
 */
package org.topupbatch.text;
