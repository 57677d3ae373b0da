/**
 * @module Questions about things a conversation never mentions (issue 35, "no noise when nothing fits"):
 * written by hand for this benchmark, in the words chat questions use and naming the conversation's own
 * people, but about facts nobody states. Each names its topic words; a question whose topic occurs anywhere
 * in the conversation (a word starting with it) is left out at run time, so the set stays "never discussed"
 * whatever conversation it is asked of.
 */
import type { LocomoConversation } from './locomo-dataset.js';

/** `{a}` is the conversation's person, `{b}` its agent; `topic` the words nobody may have said. */
const TEMPLATES: readonly { readonly question: string; readonly topic: readonly string[] }[] = [
  { question: 'What did {a} say about her submarine trip?', topic: ['submarine'] },
  { question: 'When did {b} start learning the saxophone?', topic: ['saxophone'] },
  { question: 'What is the name of the llama {a} adopted?', topic: ['llama'] },
  { question: "Who is {b}'s tax accountant?", topic: ['tax', 'accountant'] },
  { question: 'Why did {a} go to the dentist last month?', topic: ['dentist'] },
  { question: 'Where did {b} go scuba diving?', topic: ['scuba', 'diving'] },
  { question: 'What kind of motorcycle does {a} ride?', topic: ['motorcycle'] },
  { question: 'How long has {b} been playing chess?', topic: ['chess'] },
  { question: 'Did {a} ever climb a volcano?', topic: ['volcano'] },
  { question: 'What song did {b} sing at karaoke night?', topic: ['karaoke'] },
  { question: 'How did {a} pay off the mortgage?', topic: ['mortgage'] },
  { question: 'Why was {b} called for jury duty?', topic: ['jury'] },
  { question: 'What fish does {a} keep in the aquarium?', topic: ['aquarium', 'fish'] },
  { question: 'Which beekeeping course did {b} take?', topic: ['beekeeping', 'bee'] },
  { question: 'What did {a} name her parrot?', topic: ['parrot'] },
  { question: 'Has {b} ever won the lottery?', topic: ['lottery'] },
  { question: 'Where did {a} rent a kayak?', topic: ['kayak'] },
  { question: 'How much money did {b} lose at poker?', topic: ['poker'] },
  {
    question: 'What did the surgeon tell {a} about the knee surgery?',
    topic: ['surgeon', 'surgery', 'knee'],
  },
  { question: 'Which hamster food does {b} buy?', topic: ['hamster'] },
  { question: 'What did {a} think of the opera in Vienna?', topic: ['opera', 'vienna'] },
  { question: 'When is {b} going to Iceland?', topic: ['iceland'] },
  { question: 'What did we decide about the bitcoin investment?', topic: ['bitcoin', 'investment'] },
  { question: 'Which telescope did {a} buy for stargazing?', topic: ['telescope', 'stargazing'] },
  { question: 'How did {b} get along with the new landlord?', topic: ['landlord'] },
  { question: 'What did {a} learn in her calculus class?', topic: ['calculus'] },
  { question: 'Is {b} still practicing archery on weekends?', topic: ['archery'] },
  { question: 'What flavor of kombucha does {a} brew?', topic: ['kombucha', 'brew'] },
  { question: "Which insurance company handles {b}'s car claim?", topic: ['insurance', 'claim'] },
  { question: 'What did {a} say about the magician at the circus?', topic: ['magician', 'circus'] },
  { question: 'How many tortoises does {b} own?', topic: ['tortoise'] },
  { question: 'Did {a} finish the embroidery for her grandmother?', topic: ['embroidery', 'grandmother'] },
  { question: 'Why did {b} quit the bowling league?', topic: ['bowling', 'league'] },
  { question: 'What did {a} cook with the sauerkraut?', topic: ['sauerkraut'] },
  { question: 'When did {b} get braces?', topic: ['braces'] },
  { question: 'Which vineyard did {a} visit in the fall?', topic: ['vineyard'] },
  { question: 'What did {b} say about learning Mandarin?', topic: ['mandarin'] },
  { question: 'How did {a} do in the fencing tournament?', topic: ['fencing', 'tournament'] },
  { question: 'Where does {b} go snowboarding?', topic: ['snowboard'] },
  { question: 'What did {a} tell me about her asthma?', topic: ['asthma'] },
];

/**
 * A check set written after the rules of `retrieve.noiseCut` were chosen on TEMPLATES (issue 35), so a rule fitted
 * to those 40 shows here: other topics, other shapes (no name, "remind me", "tell me about", a yes/no question).
 */
const CHECK_TEMPLATES: readonly { readonly question: string; readonly topic: readonly string[] }[] = [
  { question: 'Did {a} ever tell me about her piano recital?', topic: ['piano', 'recital'] },
  { question: "What is the name of {b}'s goldfish?", topic: ['goldfish'] },
  { question: "How was {a}'s ski trip to Switzerland?", topic: ['ski', 'switzerland'] },
  { question: 'Remind me what {b} said about the plumber.', topic: ['plumber'] },
  { question: 'Which podcast does {a} listen to on the train?', topic: ['podcast'] },
  { question: 'What did we talk about regarding the solar panels?', topic: ['solar'] },
  { question: 'When did {b} break his wrist?', topic: ['wrist'] },
  { question: 'What does {b} think about cryptocurrency?', topic: ['crypto'] },
  { question: "How did {a}'s sourdough starter turn out?", topic: ['sourdough'] },
  { question: 'Where did {b} buy the espresso machine?', topic: ['espresso'] },
  { question: 'Does {a} still play Monopoly with her cousins?', topic: ['monopoly', 'cousin'] },
  { question: "What happened at {b}'s high school reunion?", topic: ['reunion'] },
  { question: 'Who won the ping pong match between {a} and {b}?', topic: ['ping', 'pong'] },
  { question: 'What did {a} say about the earthquake?', topic: ['earthquake'] },
  { question: 'Is {b} allergic to peanuts?', topic: ['allerg', 'peanut'] },
  { question: "What color is {a}'s bicycle?", topic: ['bicycle', 'bike'] },
  { question: 'Tell me about the robot vacuum {b} bought.', topic: ['robot', 'vacuum'] },
  { question: 'What did {b} think of the sushi restaurant?', topic: ['sushi'] },
  { question: 'Any news about the wedding in Scotland?', topic: ['scotland'] },
  { question: 'What was the name of the hotel in Tokyo?', topic: ['tokyo'] },
];

/** A conversation's never-discussed questions: the templates whose topic none of its turns mentions. */
export function neverDiscussedQuestions(conversation: LocomoConversation): string[] {
  return fillTemplates(conversation, TEMPLATES);
}

/** The check set's questions for a conversation (CHECK_TEMPLATES), filtered as neverDiscussedQuestions is. */
export function neverDiscussedCheckQuestions(conversation: LocomoConversation): string[] {
  return fillTemplates(conversation, CHECK_TEMPLATES);
}

function fillTemplates(
  conversation: LocomoConversation,
  templates: readonly { readonly question: string; readonly topic: readonly string[] }[],
): string[] {
  const words = new Set(
    conversation.sessions
      .flatMap((session) => session.turns.map((turn) => turn.text.toLowerCase()))
      .flatMap((text) => text.split(/[^a-z0-9]+/)),
  );
  const mentioned = (topic: string) => [...words].some((word) => word.startsWith(topic));
  return templates
    .filter((template) => !template.topic.some(mentioned))
    .map((template) =>
      template.question.replaceAll('{a}', conversation.speakerA).replaceAll('{b}', conversation.speakerB),
    );
}
