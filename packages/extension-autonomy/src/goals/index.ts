export { signalsCompletion, type TurnOutput, turnOutputOf } from "./completion-phrase.js";
export { describeGoal, goalStatusLines } from "./describe-goal.js";
export { GOAL_USAGE, type GoalRequest, parseGoalArgs } from "./goal-command-args.js";
export {
  type AutonomousGoalEntry,
  type AutonomousGoalGroup,
  autonomousGoalsOf,
  renderAutonomousGoals,
} from "./goal-fleet.js";
export {
  GOAL_INFERENCE_SYSTEM_PROMPT,
  type GoalInferenceOutcome,
  type GoalInferenceRequest,
  inferGoal,
  parseGoalInference,
} from "./goal-inference.js";
export { CURRENT_GOAL_PLACEHOLDER, type GoalCaller } from "./goal-keeper.js";
export {
  type AutonomousState,
  type AutonomousStatus,
  GOAL_SETTINGS_KEY,
  type GoalRecord,
  type GoalVerdict,
  goalOf,
} from "./goal-record.js";
export { type GoalChange, UNCHANGED } from "./goal-storage.js";
export { askSupervisor, parseVerdict, SUPERVISOR_SYSTEM_PROMPT, type SupervisorOutcome } from "./goal-supervisor.js";
export { type InferredGoalReading, inferredGoalChange } from "./inferred-goal-change.js";
