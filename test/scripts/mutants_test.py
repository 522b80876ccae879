#!/usr/bin/env python3
"""The mutation operators of scripts/mutate.py (scripts/realworld/mutants.py), on text: which
lines each one mutates, into what, and the look-alikes it leaves alone. No LibTorch parse."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "realworld"))
import mutants  # noqa: E402


def mutated(text, op):
    """{line: mutated line} of one operator's sites in text."""
    return {line: new for o, line, _, new in mutants.sites(text) if o == op}


TRAIN = """\
void train(Net& model, torch::Device device) {
  model->to(device);
  for (auto& batch : *loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    auto cpu = batch.data.to(torch::kCPU);
    auto half = batch.data.to(torch::kHalf);
    auto output = model->forward(data);
    auto loss = torch::nll_loss(output, target);
    auto direct = model->forward(batch.data.to(device));
  }
}
"""


class DropInputTo(unittest.TestCase):
    def test_moves_fed_to_the_model_or_the_loss(self):
        self.assertEqual(mutated(TRAIN, "drop-input-to"), {
            4: "    auto data = batch.data;",
            5: "    auto target = batch.target;",
            10: "    auto direct = model->forward(batch.data);"})

    def test_not_a_move_to_the_cpu_nor_a_cast_nor_an_unused_value(self):
        text = "auto x = y.to(device);\nstd::cout << z;\n"
        self.assertEqual(mutated(text, "drop-input-to"), {})


class DropModelTo(unittest.TestCase):
    def test_the_modules_move_while_inputs_are_moved(self):
        self.assertEqual(mutated(TRAIN, "drop-model-to"), {2: ""})

    def test_not_without_moved_inputs_nor_a_tensor_nor_to_the_cpu(self):
        self.assertEqual(mutated("  model->to(device);\n", "drop-model-to"), {})
        self.assertEqual(mutated(TRAIN.replace("model->to(device)", "x.to(device)"),
                                 "drop-model-to"), {})
        to_cpu = "model->to(torch::Device(torch::kCPU))"
        self.assertEqual(mutated(TRAIN.replace("model->to(device)", to_cpu), "drop-model-to"), {})


class DropFactoryDevice(unittest.TestCase):
    def test_each_way_of_naming_the_device(self):
        text = ("a = torch::zeros({2}, torch::TensorOptions().dtype(torch::kFloat).device(dev));\n"
                "b = torch::ones({2}, device);\n"
                "c = torch::randn({2}, torch::device(device).dtype(torch::kFloat));\n"
                "d = torch::empty({2}, torch::kCUDA);\n")
        self.assertEqual(mutated(text, "drop-factory-device"), {
            1: "a = torch::zeros({2}, torch::TensorOptions().dtype(torch::kFloat));",
            2: "b = torch::ones({2});",
            3: "c = torch::randn({2}, torch::TensorOptions().dtype(torch::kFloat));",
            4: "d = torch::empty({2});"})

    def test_not_the_cpu_nor_a_dtype_nor_a_call_over_lines(self):
        text = ("a = torch::zeros({2}, torch::Device(torch::kCPU));\n"
                "b = torch::ones({2}, torch::kFloat);\n"
                "c = torch::zeros({2},\n    device);\n")
        self.assertEqual(mutated(text, "drop-factory-device"), {})


class DiscardTo(unittest.TestCase):
    def test_the_assignment_goes(self):
        text = "  x = x.to(device);\n  this->h = this->h.to(torch::kFloat).to(dev);\n"
        self.assertEqual(mutated(text, "discard-to"), {
            1: "  x.to(device);", 2: "  this->h.to(torch::kFloat).to(dev);"})

    def test_not_another_name_nor_a_call_after_the_move(self):
        text = "  x = y.to(device);\n  x = x.to(device).div(255);\n  x = x.to(torch::kCPU);\n"
        self.assertEqual(mutated(text, "discard-to"), {})


class DropLoadDevice(unittest.TestCase):
    def test_the_device_argument_goes(self):
        text = ("torch::load(model, path, device);\n"
                "auto m = torch::jit::load(path, torch::kCUDA);\n")
        self.assertEqual(mutated(text, "drop-load-device"), {
            1: "torch::load(model, path);", 2: "auto m = torch::jit::load(path);"})

    def test_not_a_load_without_one(self):
        self.assertEqual(mutated("torch::load(model, path);\n", "drop-load-device"), {})


class BufferToMember(unittest.TestCase):
    def test_assignment_and_initialiser(self):
        text = ('  this->mask = register_buffer("mask", torch::ones({4}));\n'
                '    : clip(register_buffer("clip", torch::full({1}, c))),\n')
        self.assertEqual(mutated(text, "buffer-to-member"), {
            1: "  this->mask = torch::ones({4});", 2: "    : clip(torch::full({1}, c)),"})

    def test_not_a_registration_that_no_member_holds(self):
        self.assertEqual(mutated('  register_buffer("m", t);\n', "buffer-to-member"), {})


class Apply(unittest.TestCase):
    def test_keeps_the_line_count(self):
        text = TRAIN
        for _, line, _, new in mutants.sites(text):
            self.assertEqual(mutants.apply(text, line, new).count("\n"), text.count("\n"))


if __name__ == "__main__":
    unittest.main()
