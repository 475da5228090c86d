/* Quiz: turns each `.jd-quiz` block into a question you answer by choosing an option.
 *
 * Plain JavaScript, no dependencies, no network requests, loaded through `extra_javascript`.
 * The page works without it: each question is Markdown (a heading, the question, a numbered
 * list of options) followed by a collapsible "Answer" box, inside
 *
 *   <div class="jd-quiz" data-answer="N" markdown> ... </div>
 *
 * where N is the number of the right option. This script replaces the numbered list by a group
 * of radio buttons (native keyboard use: Tab into the group, arrow keys to move and choose),
 * hides the answer box until an option is chosen, then says right or wrong in a live region and
 * opens the box, whose explanation links to the section. A `.jd-quiz-score` paragraph, if the
 * page has one, keeps the running score.
 */
(function () {
  "use strict";

  var counter = 0;

  function setUp(quiz) {
    if (quiz.dataset.ready) return;
    var right = parseInt(quiz.dataset.answer, 10);
    // Below the first screen a question's text is in a section (engine/site/sections.py).
    var list = quiz.querySelector(":scope > ol, :scope > .jd-section > ol");
    var answer = quiz.querySelector(":scope > details, :scope > .jd-section > details");
    var heading = quiz.querySelector(":scope > h2, :scope > h3, :scope > h4");
    if (!list || !answer || !right) return; // not a question this script understands
    quiz.dataset.ready = "true";
    counter += 1;
    var name = "jd-quiz-" + counter;

    var group = document.createElement("fieldset");
    group.className = "jd-quiz__options";
    var legend = document.createElement("legend");
    legend.className = "jd-quiz__legend";
    legend.textContent = "Choose one answer" + (heading ? " to question " + counter : "");
    group.appendChild(legend);

    Array.prototype.forEach.call(list.children, function (item, index) {
      var label = document.createElement("label");
      label.className = "jd-quiz__option";
      var input = document.createElement("input");
      input.type = "radio";
      input.name = name;
      input.value = String(index + 1);
      var text = document.createElement("span");
      text.innerHTML = "<b>" + (index + 1) + ".</b> " + item.innerHTML;
      label.appendChild(input);
      label.appendChild(text);
      group.appendChild(label);
    });

    var feedback = document.createElement("p");
    feedback.className = "jd-quiz__feedback";
    feedback.setAttribute("role", "status");
    feedback.setAttribute("aria-live", "polite");

    list.replaceWith(group);
    group.after(feedback);
    answer.hidden = true;

    group.addEventListener("change", function (event) {
      var chosen = parseInt(event.target.value, 10);
      var correct = chosen === right;
      quiz.dataset.result = correct ? "right" : "wrong";
      Array.prototype.forEach.call(group.querySelectorAll(".jd-quiz__option"), function (option, i) {
        option.classList.toggle("jd-quiz__option--right", i + 1 === right);
        option.classList.toggle("jd-quiz__option--wrong", i + 1 === chosen && !correct);
      });
      say(feedback, correct, correct
        ? "Right: option " + right + "."
        : "Not quite: option " + chosen + " is wrong; the answer is option " + right + ".");
      answer.hidden = false;
      answer.open = true;
      updateScore();
    });
  }

  // The mark is drawn as the pages draw theirs (jitdocs.css), not an emoji a reader's fonts may
  // lack; the words say the same, so a screen reader skips it.
  function say(feedback, correct, words) {
    var mark = document.createElement("span");
    mark.className = "jd-symbol jd-symbol--" + (correct ? "right" : "wrong");
    mark.setAttribute("aria-hidden", "true");
    feedback.replaceChildren(mark, " " + words);
  }

  function updateScore() {
    var score = document.querySelector(".jd-quiz-score");
    if (!score) return;
    var quizzes = document.querySelectorAll(".jd-quiz[data-ready]");
    var answered = document.querySelectorAll(".jd-quiz[data-result]").length;
    var right = document.querySelectorAll('.jd-quiz[data-result="right"]').length;
    score.hidden = false;
    score.textContent =
      "Score: " + right + " right out of " + answered + " answered (" + quizzes.length + " questions).";
  }

  function setUpAll() {
    counter = 0;
    document.querySelectorAll(".jd-quiz").forEach(setUp);
    var score = document.querySelector(".jd-quiz-score");
    if (score) score.setAttribute("aria-live", "polite");
  }

  // Material's instant navigation swaps pages without a reload; document$ announces each one.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setUpAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUpAll);
  } else {
    setUpAll();
  }
})();
