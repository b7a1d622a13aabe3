// Payment reminders (extensions §14): a Business's reminder settings and the background task that sends each step.
export { readReminderSettings, putReminderSettings } from './reminders.service'
export { remindDue, remindDocumentStep, stepWords, type RemindRun } from './remind-due'
export { DEFAULT_SETTINGS, PLACEHOLDERS, type ReminderSettings, type ReminderStep } from './steps'
export { ReminderSettingsBody, ReminderSettingsSchema } from './reminders.model'
